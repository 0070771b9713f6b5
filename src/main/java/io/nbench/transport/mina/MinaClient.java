package io.nbench.transport.mina;

import io.nbench.protocol.RequestTemplate;
import io.nbench.transport.ClientConnection;
import io.nbench.transport.ClientSettings;
import io.nbench.transport.ClientTransport;
import io.nbench.transport.ConnectionHandler;
import io.nbench.transport.TlsSession;
import io.nbench.transport.support.Failures;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import org.apache.mina.core.future.ConnectFuture;
import org.apache.mina.core.service.IoConnector;
import org.apache.mina.core.service.IoServiceStatistics;
import org.apache.mina.core.service.SimpleIoProcessorPool;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.filter.codec.ProtocolCodecFilter;
import org.apache.mina.transport.socket.nio.NioProcessor;
import org.apache.mina.transport.socket.nio.NioSession;
import org.apache.mina.transport.socket.nio.NioSocketConnector;
import org.apache.mina.transport.vmpipe.VmPipeAddress;
import org.apache.mina.transport.vmpipe.VmPipeConnector;

/**
 * The MINA client: one {@link NioSocketConnector} whose {@code --io-threads} NioProcessors serve all
 * connections (MINA assigns sessions to processors round-robin), or a {@link VmPipeConnector}.
 */
final class MinaClient implements ClientTransport {

    private final ClientSettings settings;
    private final MinaConfig config;
    private final IoConnector connector;
    private final SimpleIoProcessorPool<NioSession> processors;
    private final List<ExecutorService> pools = new ArrayList<>();
    private final MinaClientHandler handler = new MinaClientHandler();
    /** With --tls: the SslFilter first in every session's chain; null otherwise. */
    private final MinaTls.Client tls;
    /** What the first connection's handshake negotiated; null until then. */
    private volatile TlsSession session;

    MinaClient(ClientSettings settings, MinaConfig config) throws IOException {
        this.settings = settings;
        this.config = config;
        // Made before any thread starts, so a failure leaves nothing to stop.
        this.tls = settings.tls() == null ? null : new MinaTls.Client(settings.tls());
        config.applyJvmGlobals();
        if (config.vmpipe) {
            ExecutorService service = MinaThreads.pool("nbench-mina-vmpipe-client");
            pools.add(service);
            this.processors = null;
            this.connector = new VmPipeConnector(service);
        } else {
            ExecutorService connect = MinaThreads.pool("nbench-mina-connect");
            ExecutorService io = MinaThreads.pool("nbench-mina-client");
            pools.add(connect);
            pools.add(io);
            this.processors = new SimpleIoProcessorPool<>(ReadBeforeResetProcessor.class, io, config.processors, null);
            this.connector = new NioSocketConnector(connect, processors);
        }
        try {
            connector.setConnectTimeoutMillis(settings.connectTimeout().toMillis());
            config.applyStatistics(connector);
            config.applySession(connector.getSessionConfig());
            if (tls != null) {
                connector.getFilterChain().addLast(MinaTls.FILTER, tls.filter);
            }
            connector.getFilterChain().addLast("codec", new ProtocolCodecFilter(handler));
            connector.setHandler(handler);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** VmPipe runs the whole filter chain, the peer's included, on the writing thread. */
    @Override
    public boolean deliversOnCallerThread() {
        return config.vmpipe;
    }

    @Override
    public ClientConnection connect(InetSocketAddress remote, RequestTemplate template, ConnectionHandler events)
            throws IOException {
        MinaClientConnection connection = new MinaClientConnection(template, events, settings.notifyWritten(),
                settings.maxFrame());
        SocketAddress address = config.vmpipe ? new VmPipeAddress(remote.getPort()) : remote;
        // The initializer runs before the session's filter chain fires any event, so the codec factory
        // and handler always find the connection.
        ConnectFuture f = connector.connect(address, (session, future) -> {
            session.setAttribute(MinaClientHandler.CONNECTION, connection);
            connection.attach(session);
            if (tls != null) {
                // TCP is up and SslFilter starts the handshake as the session opens: the engine times it from
                // here (on MINA's I/O thread, as netty's HandshakeStart does on its event loop).
                events.onHandshakeStart();
                MinaTls.Client.expectHandshake(session);
            }
        });
        long timeout = settings.connectTimeout().toMillis();
        if (!f.awaitUninterruptibly(timeout + 1000)) {
            f.cancel();
            throw Failures.connect(new SocketTimeoutException("connect timed out"), timeout);
        }
        if (!f.isConnected()) {
            throw Failures.connect(f.getException(), timeout);
        }
        connection.attach(f.getSession());
        if (tls != null) {
            // The handshake is part of the connect: the connection is used only once it is done.
            TlsSession negotiated = tls.awaitHandshake(f.getSession(), timeout);
            if (tls.resumed(f.getSession())) {
                events.onHandshakeResumed();
            }
            if (session == null) {
                session = negotiated;
            }
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
            m.put("tls", MinaTls.describe(settings.tls()));
        }
        return m;
    }

    /** The connector's statistics, for tests. */
    IoServiceStatistics statistics() {
        return connector.getStatistics();
    }

    @Override
    public void close() {
        if (!connector.isDisposed()) {
            for (IoSession s : connector.getManagedSessions().values()) {
                s.closeNow().awaitUninterruptibly(2000);
            }
            connector.dispose(true);
        }
        // The connector disposes only a processor pool it created itself.
        if (processors != null) {
            processors.dispose();
        }
        for (ExecutorService pool : pools) {
            MinaThreads.shutdown(pool);
        }
    }
}
