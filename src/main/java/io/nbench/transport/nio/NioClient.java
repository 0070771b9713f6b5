package io.nbench.transport.nio;

import io.nbench.protocol.RequestTemplate;
import io.nbench.transport.ClientConnection;
import io.nbench.transport.ClientSettings;
import io.nbench.transport.ClientTransport;
import io.nbench.transport.ConnectionHandler;
import io.nbench.transport.TlsSession;
import io.nbench.transport.support.Failures;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.nio.channels.SocketChannel;
import java.nio.channels.UnresolvedAddressException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import javax.net.ssl.SSLEngine;

/** The nio client: {@code --io-threads} selector loops shared by all connections, assigned round-robin. */
final class NioClient implements ClientTransport {

    private final ClientSettings settings;
    private final NioConfig config;
    private final SelectorLoop[] loops;
    /** {@code readBuffers[i]} is used by {@code loops[i]}'s thread only. */
    private final SharedReadBuffer[] readBuffers;
    /** {@code writeBuffers[i]} is used by {@code loops[i]}'s thread only. */
    private final SharedWriteBuffer[] writeBuffers;
    private final AtomicInteger next = new AtomicInteger();
    /** With --tls: what every connection's wire comes from; null otherwise. */
    private final NioTls tls;
    /** The first connection's negotiated TLS session, for the header and the result document. */
    private volatile TlsSession session;

    NioClient(ClientSettings settings) throws IOException {
        this.settings = settings;
        this.config = new NioConfig(settings.options(), settings.socket());
        this.loops = new SelectorLoop[config.ioThreads];
        this.readBuffers = new SharedReadBuffer[config.ioThreads];
        this.writeBuffers = new SharedWriteBuffer[config.ioThreads];
        this.tls = settings.tls() == null ? null : NioTls.client(settings.tls());
        try {
            for (int i = 0; i < loops.length; i++) {
                loops[i] = new SelectorLoop("nbench-nio-client-" + i);
                readBuffers[i] = new SharedReadBuffer(config);
                writeBuffers[i] = new SharedWriteBuffer(config);
            }
        } catch (IOException e) {
            close();
            throw e;
        }
        for (SelectorLoop loop : loops) {
            loop.start();
        }
    }

    @Override
    public ClientConnection connect(InetSocketAddress remote, RequestTemplate template, ConnectionHandler handler)
            throws IOException {
        if (remote.isUnresolved()) {
            throw new IOException("unknown host " + remote.getHostString());
        }
        long timeoutMs = Math.max(1, Math.min(Integer.MAX_VALUE, settings.connectTimeout().toMillis()));
        SSLEngine engine = tls == null ? null : tls.clientEngine(remote.getPort());
        SocketChannel channel = SocketChannel.open();
        try {
            config.apply(channel);
            // A blocking connect on the caller's thread, bounded by the timeout; the loop only ever sees
            // connected channels.
            channel.socket().connect(remote, (int) timeoutMs);
            channel.configureBlocking(false);
        } catch (SocketTimeoutException | ConnectException | NoRouteToHostException e) {
            channel.close();
            throw Failures.connect(e, timeoutMs);
        } catch (UnresolvedAddressException e) {
            channel.close();
            throw new IOException("unknown host " + remote.getHostString(), e);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        ReentrantLock lock = new ReentrantLock();
        Wire wire = new PlainWire(channel);
        if (tls != null) {
            try {
                handler.onHandshakeStart(); // TCP is up: the engine times the handshake from here
                TlsWire secured = tls.connect(channel, engine, lock, config, timeoutMs);
                if (session == null) {
                    session = NioTls.session(secured);
                }
                if (tls.resumed(secured)) {
                    handler.onHandshakeResumed();
                }
                wire = secured;
            } catch (IOException | RuntimeException e) {
                channel.close();
                throw e;
            }
        }
        int index = Math.floorMod(next.getAndIncrement(), loops.length);
        SelectorLoop loop = loops[index];
        NioClientConnection connection = new NioClientConnection(loop, readBuffers[index], writeBuffers[index],
                channel, wire, lock, config, template, handler, settings.maxFrame(), settings.notifyWritten());
        CompletableFuture<Void> registered = new CompletableFuture<>();
        boolean queued = loop.execute(() -> {
            try {
                connection.register();
                registered.complete(null);
            } catch (IOException | RuntimeException e) {
                registered.completeExceptionally(e);
            }
        });
        if (!queued) {
            channel.close();
            throw new IOException("the nio client is closed");
        }
        try {
            registered.get();
        } catch (ExecutionException e) {
            channel.close();
            throw new IOException("cannot register the connection: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            channel.close();
            throw new IOException("interrupted while connecting", e);
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
            m.put("tls", tls.describe() + "; handshake on the connecting thread");
        }
        m.put("send", "written by the calling thread; sends from a response callback are written once per read");
        return m;
    }

    @Override
    public void close() {
        for (SelectorLoop loop : loops) {
            if (loop != null) {
                loop.close();
            }
        }
    }
}
