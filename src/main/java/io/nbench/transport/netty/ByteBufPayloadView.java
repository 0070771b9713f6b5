package io.nbench.transport.netty;

import io.nbench.transport.PayloadView;
import io.netty.buffer.ByteBuf;

/** A reusable {@link PayloadView} over a region of a {@link ByteBuf}; one per connection. */
final class ByteBufPayloadView implements PayloadView {

    private ByteBuf buf;
    private int offset;
    private int length;

    ByteBufPayloadView wrap(ByteBuf buf, int offset, int length) {
        this.buf = buf;
        this.offset = offset;
        this.length = length;
        return this;
    }

    /**
     * Moves this view within the buffer it already wraps: a decoder looks at each response twice (header,
     * then payload), and storing the same buffer reference again costs a GC write barrier per store.
     */
    ByteBufPayloadView at(int offset, int length) {
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
        return buf.getByte(offset + index);
    }

    @Override
    public long getLong(int index) {
        return buf.getLong(offset + index);
    }

    @Override
    public long getUnsignedInt(int index) {
        return buf.getUnsignedInt(offset + index);
    }
}
