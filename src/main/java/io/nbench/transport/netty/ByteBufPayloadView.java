package io.nbench.transport.netty;

import io.nbench.transport.PayloadView;
import io.netty.buffer.ByteBuf;

/**
 * A reusable {@link PayloadView} over a region of a {@link ByteBuf}, or over two regions one after the
 * other (a frame whose start ended one socket read and whose rest began the next: read where the reads
 * put it instead of copied together); one per connection. One class for both, so the engine's calls on
 * the view stay monomorphic; the check for the second region is one predictable comparison per access.
 */
final class ByteBufPayloadView implements PayloadView {

    private ByteBuf buf;
    private int offset;
    /** Bytes of the payload in {@code buf}; the rest, if any, are in {@code rest}. */
    private int first;
    private ByteBuf rest;
    private int restOffset;
    private int length;

    ByteBufPayloadView wrap(ByteBuf buf, int offset, int length) {
        this.buf = buf;
        this.offset = offset;
        this.first = length;
        this.rest = null;
        this.length = length;
        return this;
    }

    /** The payload's first {@code first} bytes at {@code offset} in {@code buf}, the others at {@code restOffset} in {@code rest}. */
    ByteBufPayloadView wrap(ByteBuf buf, int offset, int first, ByteBuf rest, int restOffset, int length) {
        this.buf = buf;
        this.offset = offset;
        this.first = first;
        this.rest = rest;
        this.restOffset = restOffset;
        this.length = length;
        return this;
    }

    @Override
    public int length() {
        return length;
    }

    @Override
    public byte getByte(int index) {
        if (index < first) {
            return buf.getByte(offset + index);
        }
        if (index >= length) {
            throw new IndexOutOfBoundsException(index);
        }
        return rest.getByte(restOffset + index - first);
    }

    @Override
    public long getLong(int index) {
        if (index + 8 <= first) {
            return buf.getLong(offset + index);
        }
        if (index < 0 || index + 8 > length) {
            throw new IndexOutOfBoundsException(index);
        }
        if (index >= first) {
            return rest.getLong(restOffset + index - first);
        }
        long v = 0;
        for (int i = index; i < index + 8; i++) {
            v = v << 8 | (getByte(i) & 0xFF);
        }
        return v;
    }
}
