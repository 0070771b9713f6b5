package io.nbench.transport;

import io.nbench.protocol.WireBytes;

/**
 * Read-only access to a response payload held in a transport's own buffer (Netty ByteBuf, MINA
 * IoBuffer, NIO ByteBuffer), so the engine can verify bytes without copying or allocating. Transports
 * keep one reusable instance per connection and repoint it for each response.
 */
public interface PayloadView extends WireBytes {

    /** An empty payload. */
    PayloadView EMPTY = new PayloadView() {
        @Override
        public int length() {
            return 0;
        }

        @Override
        public byte getByte(int index) {
            throw new IndexOutOfBoundsException(index);
        }

        @Override
        public long getLong(int index) {
            throw new IndexOutOfBoundsException(index);
        }
    };
}
