package io.nbench.transport.netty;

import io.nbench.protocol.RequestTemplate;
import io.nbench.transport.ClientConnection;
import io.nbench.transport.ClientSettings;
import io.nbench.transport.ClientTransport;
import io.nbench.transport.ConnectionHandler;
import io.nbench.transport.TlsSession;
import io.nbench.transport.support.Failures;
import io.nbench.transport.support.JdkTls;
import io.nbench.transport.support.ResumedHandshakes;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.handler.ssl.NotSslRecordException;
import io.netty.handler.ssl.OpenSslSessionContext;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.X509ExtendedTrustManager;

/** The Netty client: {@code --io-threads} event loops shared by all connections, round-robin. */
final class NettyClient implements ClientTransport {

    private final ClientSettings settings;
    private final NettyConfig config;
    private final EventLoopGroup group;
    private final Bootstrap base;
    /** Every connection, so close() can wait for them to close before their event loops stop. */
    private final ChannelGroup channels = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    /** Each event loop's batch buffers, shared by its connections (see PreparedBatches). */
    private final Map<EventLoop, PreparedBatches> batches = new ConcurrentHashMap<>();
    /** With --tls: one context for every connection; null otherwise. */
    private final SslContext tls;
    /** With --tls: which handshakes resumed a session, and the trust manager that tells them apart. */
    private final ResumedHandshakes handshakes = new ResumedHandshakes();
    private final X509ExtendedTrustManager trust;
    /** What the first connection's handshake negotiated; null until then. */
    private volatile TlsSession session;

    NettyClient(ClientSettings settings) throws IOException {
        this(settings, new NettyConfig(settings.options(), settings.socket()));
    }

    NettyClient(ClientSettings settings, NettyConfig config) throws IOException {
        this.settings = settings;
        this.config = config;
        this.trust = settings.tls() == null ? null : handshakes.watching(JdkTls.trust(settings.tls()));
        this.tls = settings.tls() == null ? null : NettyTls.client(settings.tls(), config.tlsEngine, trust);
        this.group = new MultiThreadIoEventLoopGroup(config.ioThreads, new DefaultThreadFactory("nbench-netty-client", true),
                config.handlerFactory());
        this.base = new Bootstrap().group(group).channel(config.channel())
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE,
                        settings.connectTimeout().toMillis()))
                // A failed write shuts the output instead of closing the channel, so that what the server sent
                // before it closed (an HTTP response saying Connection: close) is still read.
                .option(ChannelOption.AUTO_CLOSE, false);
        config.applyChannelOptions(base::option);
    }

    @Override
    public ClientConnection connect(InetSocketAddress remote, RequestTemplate template, ConnectionHandler handler)
            throws IOException {
        NettyClientConnection connection = new NettyClientConnection(template, handler, settings.notifyWritten(),
                settings.maxFrame(), config.nettyHttpCodec && template.protocol().httpMessages());
        SslContext connectionTls = tlsForConnection();
        // Kept here, not looked up in the pipeline after the connect: a peer that closes at once (a plain server
        // reading the ClientHello) can have the channel closed and its handlers removed before this thread looks.
        AtomicReference<SslHandler> sslHandler = new AtomicReference<>();
        Bootstrap b = base.clone().handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                if (connectionTls != null) {
                    // The host as the user named it: SNI and the certificate's host name check.
                    SslHandler ssl = connectionTls.newHandler(ch.alloc(), settings.tls().serverName(), remote.getPort());
                    ssl.setHandshakeTimeoutMillis(settings.connectTimeout().toMillis());
                    sslHandler.set(ssl);
                    ch.pipeline().addLast(new HandshakeStart(handler), ssl);
                }
                PreparedBatches loopBatches = batches.computeIfAbsent(ch.eventLoop(), l -> new PreparedBatches());
                connection.initPipeline(ch.pipeline(), loopBatches);
            }
        });
        ChannelFuture f = b.connect(config.address(remote));
        if (!f.awaitUninterruptibly(settings.connectTimeout().toMillis() + 1000)) {
            f.cancel(false);
            throw Failures.connect(new SocketTimeoutException("connect timed out"), settings.connectTimeout().toMillis());
        }
        if (!f.isSuccess()) {
            throw Failures.connect(f.cause(), settings.connectTimeout().toMillis());
        }
        if (tls != null) {
            handshake(f.channel(), sslHandler.get(), handler);
        }
        connection.attach(f.channel());
        channels.add(f.channel());
        return connection;
    }

    /** Netty's decoder unless {@code -O netty.http-codec=nbench}: see {@link HttpResponseReader}. */
    @Override
    public String httpParser() {
        return config.nettyHttpCodec
                ? "Netty's HttpResponseDecoder (" + config.httpCodecKey + "=netty: objects allocated per response, "
                        + "see docs/transports.md; -O " + config.httpCodecKey + "=nbench: nbench's allocation-free "
                        + "parser)"
                : ClientTransport.super.httpParser();
    }

    /**
     * A new connection's TLS context: the shared one, or without resumption on the JDK engine one of its own. The
     * JDK's client offers every session its context cached for the host and port, with no switch to stop it;
     * OpenSSL's cache is switched off in the shared context ({@link NettyTls#client}). Made before the connect, so
     * its making is no part of the handshake.
     */
    private SslContext tlsForConnection() throws IOException {
        if (tls == null || settings.tls().resumption() || tls.sessionContext() instanceof OpenSslSessionContext) {
            return tls;
        }
        return NettyTls.client(settings.tls(), config.tlsEngine, trust);
    }

    /** The TLS handshake is part of the connect: it returns once the handshake is done, or fails with why. */
    private void handshake(Channel ch, SslHandler ssl, ConnectionHandler handler) throws IOException {
        Future<Channel> done = ssl.handshakeFuture();
        long timeout = settings.connectTimeout().toMillis();
        if (!done.awaitUninterruptibly(timeout + 1000) || !done.isSuccess()) {
            ch.close();
            Throwable cause = done.isDone() ? done.cause() : null;
            // Netty checks the first record itself; its exception's message is a hex dump of what the server sent.
            throw cause instanceof NotSslRecordException ? Failures.plainTextPeer(cause)
                    : Failures.handshake(cause, timeout);
        }
        if (session == null) {
            session = NettyTls.session(ssl, config.tlsEngine);
        }
        if (handshakes.resumed(ssl.engine().getSession())) {
            handler.onHandshakeResumed();
        }
    }

    @Override
    public TlsSession tlsSession() {
        return session;
    }

    @Override
    public Map<String, String> effectiveConfig() {
        Map<String, String> m = config.describe();
        if (tls != null) {
            m.put("tls", config.tlsEngine + " engine, " + settings.tls().describe());
        }
        return m;
    }

    /** How long an in-JVM client's loops stay up after its channels closed, for their peers' last word. */
    static final long LOCAL_QUIET_MILLIS = 200;

    @Override
    public void close() {
        // Close the connections first: a LocalChannel peer notifies this side's event loop as it closes,
        // which must still be running. That notification comes back from the server's event loop after
        // our close has completed, so in-JVM the loops also wait for a quiet period, during which a task
        // submitted is still accepted (without it Netty logs a RejectedExecutionException on a loaded
        // machine); TCP channels have no such peer and stop at once.
        channels.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
        long quietMillis = config.local ? LOCAL_QUIET_MILLIS : 0;
        group.shutdownGracefully(quietMillis, 2_000 + quietMillis, TimeUnit.MILLISECONDS).awaitUninterruptibly();
        // The loops have stopped: nothing else touches their batch buffers now.
        batches.values().forEach(PreparedBatches::release);
    }
}
