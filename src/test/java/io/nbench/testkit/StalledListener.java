package io.nbench.testkit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * A server that listens but never accepts, its accept queue already full: Linux drops further SYNs, so a
 * connect to it hangs until the client's connect timeout (a server too busy to accept, or one started late).
 */
public final class StalledListener implements AutoCloseable {

    private final ServerSocket listener;
    private final List<SocketChannel> fillers = new ArrayList<>();

    public StalledListener() throws IOException {
        listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        try {
            for (int i = 0; i < 4; i++) {
                SocketChannel f = SocketChannel.open();
                fillers.add(f);
                f.configureBlocking(false);
                f.connect(listener.getLocalSocketAddress());
            }
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) listener.getLocalSocketAddress();
    }

    @Override
    public void close() throws IOException {
        for (SocketChannel f : fillers) {
            f.close();
        }
        listener.close();
    }
}
