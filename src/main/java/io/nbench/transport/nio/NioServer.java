package io.nbench.transport.nio;

import io.nbench.transport.support.Failures;
import io.nbench.transport.support.HandshakeDeadlines;
import io.nbench.transport.support.IdleConnections;
import io.nbench.transport.RunningServer;
import io.nbench.transport.ServerEvents;
import io.nbench.transport.ServerSettings;
import io.nbench.transport.support.Threads;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * The nio server: one acceptor thread blocking in {@code accept()} and {@code --io-threads} selector
 * loops; accepted connections are assigned round-robin and stay on their loop for life (the hand-off
 * to the loop happens once per connection, never per message).
 */
final class NioServer implements RunningServer {

    private final ServerSocketChannel server;
    private final SelectorLoop[] loops;
    /** One per loop, used by that loop's thread only. */
    private final BufferPool[] pools;
    private final NioConfig config;
    private final ServerSettings settings;
    private final ServerEvents events;
    private final Thread acceptor;
    private final InetSocketAddress address;
    private final IdleConnections idle;
    /** With --tls: what every accepted connection's wire comes from; null otherwise. */
    private final NioTls tls;
    /** With --tls: closes the connections whose handshake is not done in time; null otherwise. */
    private final HandshakeDeadlines handshakes;
    private volatile boolean closing;

    private NioServer(ServerSocketChannel server, SelectorLoop[] loops, NioConfig config, ServerSettings settings,
                      ServerEvents events, NioTls tls) throws IOException {
        this.tls = tls;
        this.idle = IdleConnections.start(settings.idleTimeout(), events, "nbench-nio-idle");
        this.handshakes = tls == null ? null : HandshakeDeadlines.start(settings.tls().handshakeTimeout(), events,
                "nbench-nio-handshakes");
        this.server = server;
        this.address = (InetSocketAddress) server.getLocalAddress();
        this.loops = loops;
        this.pools = new BufferPool[loops.length];
        for (int i = 0; i < loops.length; i++) {
            pools[i] = new BufferPool(config);
        }
        this.config = config;
        this.settings = settings;
        this.events = events;
        this.acceptor = new Thread(this::accept, "nbench-nio-accept");
        this.acceptor.setDaemon(true);
    }

    static NioServer start(ServerSettings settings, ServerEvents events) throws IOException {
        NioConfig config = new NioConfig(settings.options(), settings.socket());
        NioTls tls = settings.tls() == null ? null : NioTls.server(settings.tls());
        ServerSocketChannel server = ServerSocketChannel.open();
        SelectorLoop[] loops = new SelectorLoop[config.ioThreads];
        try {
            server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            if (config.socket.rcvbuf() > 0) {
                // Set before bind so that accepted sockets inherit it with a matching window scale.
                server.setOption(StandardSocketOptions.SO_RCVBUF, config.socket.rcvbuf());
            }
            server.bind(settings.bind(), settings.listen().backlog());
        } catch (IOException e) {
            server.close();
            InetSocketAddress b = settings.bind();
            throw Failures.bind(e, b.getHostString() + ":" + b.getPort());
        }
        try {
            for (int i = 0; i < loops.length; i++) {
                loops[i] = new SelectorLoop("nbench-nio-server-" + i);
            }
        } catch (IOException e) {
            server.close();
            for (SelectorLoop loop : loops) {
                if (loop != null) {
                    loop.close();
                }
            }
            throw e;
        }
        for (SelectorLoop loop : loops) {
            loop.start();
        }
        NioServer s = new NioServer(server, loops, config, settings, events, tls);
        s.acceptor.start();
        return s;
    }

    private void accept() {
        int next = 0;
        while (!closing) {
            SocketChannel channel;
            try {
                channel = server.accept();
            } catch (ClosedChannelException e) {
                return;
            } catch (IOException e) {
                // e.g. too many open files: keep serving the connections we have and retry shortly.
                events.trouble("accept", "cannot accept connections: " + e.getMessage() + "; serving the open "
                        + "ones and retrying (raise the descriptor limit with ulimit -n)");
                LockSupport.parkNanos(10_000_000L);
                continue;
            }
            try {
                channel.configureBlocking(false);
                config.apply(channel);
            } catch (IOException e) {
                closeQuietly(channel);
                continue;
            }
            SelectorLoop loop = loops[next];
            BufferPool pool = pools[next];
            next = (next + 1) % loops.length;
            Wire wire = tls == null ? new PlainWire(channel) : tls.serverWire(channel, config);
            NioServerConnection c = new NioServerConnection(channel, wire, config, settings.codec(), settings.protocol(), events, idle, handshakes, pool,
                    settings.runtime());
            if (!loop.execute(() -> c.register(loop))) {
                closeQuietly(channel);
            }
        }
    }

    private static void closeQuietly(SocketChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // already gone
        }
    }

    @Override
    public InetSocketAddress address() {
        return address;
    }

    @Override
    public Map<String, String> effectiveConfig() {
        Map<String, String> m = config.describe();
        m.putAll(settings.listen().describe());
        m.put("accept", "one blocking acceptor thread, connections round-robin over the loops");
        if (tls != null) {
            m.put("tls", tls.describe() + "; handshakes on the selector loops");
        }
        return m;
    }

    @Override
    public void close() {
        closing = true;
        try {
            server.close();
        } catch (IOException e) {
            // closing anyway
        }
        Threads.join(acceptor);
        for (SelectorLoop loop : loops) {
            loop.close();
        }
        idle.close();
        if (handshakes != null) {
            handshakes.close();
        }
    }

}
