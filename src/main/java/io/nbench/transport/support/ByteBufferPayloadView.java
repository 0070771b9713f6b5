package io.nbench.transport.support;

import io.nbench.transport.PayloadView;
import java.nio.ByteBuffer;

/** A reusable {@link PayloadView} over a region of a {@link ByteBuffer}, for NIO-based transports. */
public final class ByteBufferPayloadView implements PayloadView {

    private ByteBuffer buffer;
    private int offset;
    private int length;

    /** Points this view at {@code length} bytes of {@code buffer} starting at absolute {@code offset}. */
    public ByteBufferPayloadView wrap(ByteBuffer buffer, int offset, int length) {
        this.buffer = buffer;
        this.offset = offset;
        this.length = length;
        return this;
    }

    /**
     * Moves this view to {@code length} bytes at absolute {@code offset} of the buffer it already wraps. Why
     * not {@link #wrap}: a decoder looks at each response twice (its header, then its payload), and storing
     * the same buffer reference again costs a GC write barrier per store on the client's hot path.
     */
    public ByteBufferPayloadView at(int offset, int length) {
        this.offset = offset;
        this.length = length;
        return this;
    }

    @Override
    public int length() {
        return length;
    }

    @Override
    public byte getByte(int index) {
        return buffer.get(offset + index);
    }

    @Override
    public long getLong(int index) {
        // ByteBuffer's absolute getLong honours the buffer's byte order; nbench buffers are big-endian.
        return buffer.getLong(offset + index);
    }

    @Override
    public long getUnsignedInt(int index) {
        return buffer.getInt(offset + index) & 0xFFFF_FFFFL;
    }
}
