package io.nbench.transport.nio;

import java.nio.ByteBuffer;

/**
 * The one read buffer that all client connections of a selector loop read into, in turn: a read is
 * decoded before the loop reads the next connection, and only the bytes of an incomplete response are
 * kept, by the connection, in its small carry buffer. Why: with a buffer per connection, 200 connections
 * read into 200 different cold buffers (16 KiB of fresh cache lines per read at window 16 x 1 KiB),
 * and the kernel's copy into user space ({@code _copy_to_iter}) took 11.3 % of the loop thread against
 * 6.4 % at 50 connections; one buffer stays in the core's cache, as the C reference client's does.
 *
 * <p>Loop thread only: no lock.
 */
final class SharedReadBuffer {

    private final NioConfig config;
    private ByteBuffer buffer;

    SharedReadBuffer(NioConfig config) {
        this.config = config;
    }

    /**
     * The buffer, cleared, with room for at least {@code capacity} bytes: grown (and kept at that size)
     * when a response larger than the configured buffer arrives.
     */
    ByteBuffer take(int capacity) {
        if (buffer == null || buffer.capacity() < capacity) {
            int size = Math.max(config.bufferSize, capacity);
            buffer = config.allocate(size);
        }
        buffer.clear();
        return buffer;
    }
}
