package io.nbench.testkit;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;

/**
 * A peer that writes as fast as the kernel takes its bytes and never reads: the attack of a client
 * that sends small requests asking for large responses. {@link #writeUntilStalled} measures how many
 * bytes the server accepted before the connection stopped taking more, which is what the server (and
 * the two sockets' kernel buffers, kept small here) buffers for it.
 */
public final class NeverReadingPeer implements AutoCloseable {

    /** SO_SNDBUF of the peer: small, so that the kernel's share of the bytes accepted stays small. */
    public static final int SNDBUF = 64 * 1024;

    private final SocketChannel channel;
    private final Selector selector;

    public NeverReadingPeer(InetSocketAddress server) throws IOException {
        channel = SocketChannel.open();
        try {
            channel.setOption(StandardSocketOptions.SO_SNDBUF, SNDBUF);
            // Set before connect: the window this socket advertises (and so the server's send buffer
            // use towards it) is fixed then.
            channel.setOption(StandardSocketOptions.SO_RCVBUF, SNDBUF);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.connect(server);
            channel.configureBlocking(false);
            selector = Selector.open();
            channel.register(selector, SelectionKey.OP_WRITE);
        } catch (IOException e) {
            channel.close();
            throw e;
        }
    }

    /**
     * Writes {@code pattern} over and over until no byte has been accepted for {@code quietMillis}, or
     * until {@code cap} bytes went (a server that never stops reading); returns the bytes accepted.
     * A connection the server closed ends the writing too (its bytes so far are returned).
     */
    public long writeUntilStalled(byte[] pattern, long cap, long quietMillis) throws IOException {
        ByteBuffer chunk = ByteBuffer.allocate(pattern.length * Math.max(1, 65_536 / pattern.length));
        while (chunk.remaining() >= pattern.length) {
            chunk.put(pattern);
        }
        chunk.flip();
        long written = 0;
        long lastProgress = System.nanoTime();
        while (written < cap) {
            int n;
            try {
                n = channel.write(chunk);
            } catch (IOException e) {
                return written;
            }
            if (!chunk.hasRemaining()) {
                chunk.rewind();
            }
            if (n > 0) {
                written += n;
                lastProgress = System.nanoTime();
                continue;
            }
            long quietFor = (System.nanoTime() - lastProgress) / 1_000_000;
            if (quietFor >= quietMillis) {
                return written;
            }
            selector.select(Math.max(1, quietMillis - quietFor));
            selector.selectedKeys().clear();
        }
        return written;
    }

    @Override
    public void close() throws IOException {
        try {
            selector.close();
        } finally {
            channel.close();
        }
    }
}
