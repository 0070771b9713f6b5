package io.nbench.transport.blocking;

import io.nbench.protocol.RequestTemplate;
import io.nbench.transport.ClientConnection;
import io.nbench.transport.ClientSettings;
import io.nbench.transport.ClientTransport;
import io.nbench.transport.ConnectionHandler;
import io.nbench.transport.TlsSession;
import io.nbench.transport.support.Failures;
import io.nbench.transport.support.Threads;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/** The blocking client: each connection has its own reader thread; nothing is shared between connections. */
final class BlockingClient implements ClientTransport {

    private final ClientSettings settings;
    private final BlockingConfig config;
    private final Set<BlockingClientConnection> connections = ConcurrentHashMap.newKeySet();
    private final AtomicLong number = new AtomicLong();
    private volatile boolean closed;

    /** With --tls: what every connection is layered into; null otherwise. */
    private final BlockingTls tls;
    /** What the first connection's handshake negotiated; null until then. */
    private volatile TlsSession session;

    BlockingClient(ClientSettings settings, BlockingConfig config) throws IOException {
        this.settings = settings;
        this.config = config;
        this.tls = settings.tls() == null ? null : BlockingTls.client(settings.tls());
    }

    @Override
    public ClientConnection connect(InetSocketAddress remote, RequestTemplate template, ConnectionHandler handler)
            throws IOException {
        if (closed) {
            throw new IOException("the " + config.name + " client is closed");
        }
        if (remote.isUnresolved()) {
            throw new IOException("unknown host " + remote.getHostString());
        }
        long timeoutMs = Math.max(1, Math.min(Integer.MAX_VALUE, settings.connectTimeout().toMillis()));
        SSLContext context = tls == null ? null : tls.clientContext();
        Socket socket = new Socket();
        BlockingClientConnection connection;
        try {
            config.apply(socket);
            socket.connect(remote, (int) timeoutMs);
            Socket wire = socket;
            if (tls != null) {
                handler.onHandshakeStart();
                SSLSocket ssl = tls.connect(context, socket, settings.tls().serverName(), remote.getPort(),
                        (int) timeoutMs);
                if (session == null) {
                    session = BlockingTls.session(ssl);
                }
                if (tls.resumed(ssl)) {
                    handler.onHandshakeResumed();
                }
                wire = ssl;
            }
            connection = new BlockingClientConnection(wire, socket, config, template, handler, settings.maxFrame(),
                    settings.notifyWritten(), connections::remove);
        } catch (SocketTimeoutException | ConnectException | NoRouteToHostException e) {
            socket.close();
            throw Failures.connect(e, timeoutMs);
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
        connections.add(connection);
        BlockingClientConnection c = connection;
        connection.start(config.threads.newThread("nbench-" + config.name + "-client-" + number.incrementAndGet(),
                new Reader(c)));
        if (closed) {
            c.close();
        }
        return connection;
    }

    @Override
    public TlsSession tlsSession() {
        return session;
    }

    @Override
    public Map<String, String> effectiveConfig() {
        Map<String, String> m = config.describe();
        if (tls != null) {
            m.put("tls", tls.describe());
        }
        m.put("send", "written by the calling thread under a per-connection lock; sends from a response "
                + "callback are written once per read");
        return m;
    }

    @Override
    public void close() {
        closed = true;
        List<Thread> readers = new ArrayList<>();
        for (BlockingClientConnection c : connections) {
            c.close();
            readers.add(c.reader());
        }
        Threads.joinAll(readers);
    }

    /**
     * A connection's reader task, which lets go of its connection when it ends. A terminated virtual thread keeps
     * its task, so anything still referring to the thread (the load engine's recorder of that thread until the next
     * harvest, a second at most) kept the connection with its buffers: with --requests-per-connection 1, a second
     * of reconnects held hundreds of megabytes and the vthreads client ran out of heap within seconds.
     */
    private static final class Reader implements Runnable {
        private BlockingClientConnection connection;

        Reader(BlockingClientConnection connection) {
            this.connection = connection;
        }

        @Override
        public void run() {
            try {
                connection.read();
            } finally {
                connection = null;
            }
        }
    }
}
