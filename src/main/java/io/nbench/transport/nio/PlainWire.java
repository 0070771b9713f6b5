package io.nbench.transport.nio;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/** Plain TCP: the channel's own reads and writes, nothing held beneath the connection's buffers. */
final class PlainWire implements Wire {

    private final SocketChannel channel;

    PlainWire(SocketChannel channel) {
        this.channel = channel;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        return channel.read(dst);
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        return channel.write(src);
    }

    @Override
    public boolean flushed() {
        return true;
    }

    @Override
    public boolean buffered() {
        return false;
    }

    @Override
    public void closing() {
    }
}
