package io.nbench.protocol;

/**
 * Read-only access to bytes a transport received, wherever its buffer keeps them (Netty ByteBuf, MINA
 * IoBuffer, NIO ByteBuffer): what a {@link ClientCodec} reads a response's header through, so one codec
 * serves every client transport without copying. Transports keep one reusable instance per connection
 * and repoint it; indices are relative to where the view starts.
 */
public interface WireBytes {

    int length();

    byte getByte(int index);

    /** Eight bytes big-endian at {@code index}. */
    long getLong(int index);

    /** Four bytes big-endian at {@code index}, unsigned. */
    default long getUnsignedInt(int index) {
        return (getByte(index) & 0xFFL) << 24 | (getByte(index + 1) & 0xFFL) << 16
                | (getByte(index + 2) & 0xFFL) << 8 | getByte(index + 3) & 0xFFL;
    }
}
