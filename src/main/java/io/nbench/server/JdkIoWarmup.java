package io.nbench.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

/**
 * Initializes the JDK's socket classes while the process still has file descriptors to spare. Some of
 * them open a descriptor in their static initializer (the NIO file dispatcher's pre-close socket pair):
 * when that first happens in an {@code accept} at the descriptor limit, the class fails to initialize
 * and stays unusable for the life of the JVM, so a server started under a low {@code ulimit -n} would
 * stop serving for good at its first full house. One loopback exchange over NIO and one over
 * {@code java.net.Socket}, before the transport starts, initializes them all.
 */
public final class JdkIoWarmup {

    private JdkIoWarmup() {
    }

    public static void run() {
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        try (Selector selector = Selector.open();
             ServerSocketChannel server = ServerSocketChannel.open().bind(loopback, 1);
             SocketChannel client = SocketChannel.open(server.getLocalAddress());
             SocketChannel accepted = server.accept()) {
            client.write(ByteBuffer.wrap(new byte[] {1}));
            accepted.read(ByteBuffer.allocate(1));
            selector.selectNow();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open loopback sockets: " + e.getMessage(), e);
        }
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             Socket client = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
             Socket accepted = server.accept()) {
            client.getOutputStream().write(1);
            accepted.getInputStream().read();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open loopback sockets: " + e.getMessage(), e);
        }
    }
}
