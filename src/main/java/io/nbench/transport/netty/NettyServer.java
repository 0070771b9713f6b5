package io.nbench.transport.netty;

import io.nbench.protocol.Protocol;
import io.nbench.transport.ListenSettings;
import io.nbench.transport.RunningServer;
import io.nbench.transport.ServerEvents;
import io.nbench.transport.ServerSettings;
import io.nbench.transport.TransportFailure;
import io.nbench.transport.support.Failures;
import io.nbench.transport.support.IdleConnections;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.DefaultEventExecutorGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutorGroup;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** The Netty server: one acceptor loop, {@code --io-threads} worker loops, a decoder per connection. */
final class NettyServer implements RunningServer {

    private final EventLoopGroup boss;
    private final EventLoopGroup workers;
    private final Channel channel;
    private final NettyConfig config;
    private final ListenSettings listen;
    private final InetSocketAddress localAddress;
    private final IdleConnections idle;
    /** The accepted connections still open, closed by {@link #close} before their event loops stop. */
    private final ChannelGroup connections;
    /** netty.executor's group, or null. */
    private final EventExecutorGroup executor;
    private final String executorDescription;
    /** With --tls: the engine, protocols and certificate, for the effective configuration; else null. */
    private final String tlsDescription;

    private NettyServer(EventLoopGroup boss, EventLoopGroup workers, Channel channel, NettyConfig config,
                        ListenSettings listen, InetSocketAddress localAddress, IdleConnections idle,
                        ChannelGroup connections, EventExecutorGroup executor, String executorDescription,
                        String tlsDescription) {
        this.connections = connections;
        this.tlsDescription = tlsDescription;
        this.executor = executor;
        this.executorDescription = executorDescription;
        this.localAddress = localAddress;
        this.idle = idle;
        this.boss = boss;
        this.workers = workers;
        this.channel = channel;
        this.config = config;
        this.listen = listen;
    }

    static NettyServer start(ServerSettings settings, ServerEvents events) throws IOException {
        return start(settings, events, new NettyConfig(settings.options(), settings.socket()));
    }

    static NettyServer start(ServerSettings settings, ServerEvents events, NettyConfig config) throws IOException {
        if (!config.local && settings.listen().tcpFastOpen() > 0 && !config.io.io().tcpFastOpenServerEnabled()) {
            throw new TransportFailure(TransportFailure.Kind.OTHER, TcpFastOpenSysctl.serverDisabled(), null);
        }
        // --tls: one context for every connection (made before any thread starts, so a failure leaves nothing to
        // stop), an SslHandler first in each pipeline: the handlers behind it see plain bytes, as in any Netty
        // server with TLS.
        SslContext tls = settings.tls() == null ? null : NettyTls.server(settings.tls(), config.tlsEngine);
        TlsHandshakeErrors handshakeErrors = new TlsHandshakeErrors(events);
        EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("nbench-netty-accept", true),
                config.handlerFactory());
        EventLoopGroup workers = new MultiThreadIoEventLoopGroup(config.ioThreads,
                new DefaultThreadFactory("nbench-netty-server", true), config.handlerFactory());
        IdleConnections idle = IdleConnections.start(settings.idleTimeout(), events,
                config.local ? "nbench-netty-local-idle" : "nbench-netty-idle");
        // netty.executor: the request handler (framed) or the echo handler on a DefaultEventExecutorGroup, as a
        // Netty user moves blocking work off the event loop: each channel's events run on one executor thread,
        // in order, and its writes go back to its event loop. nbench's own pool (--executor-threads, framed
        // only) or delay timer (--work-mode delay) takes precedence.
        boolean ownPool = settings.runtime().answersLater();
        EventExecutorGroup executor = !ownPool && config.executorThreads > 0
                ? new DefaultEventExecutorGroup(config.executorThreads,
                        new DefaultThreadFactory("nbench-netty-executor", true))
                : null;
        String executorDescription = executor != null ? "DefaultEventExecutorGroup(" + config.executorThreads + ")"
                : config.executorThreads > 0 ? "off (" + settings.runtime().answeredLaterBy() + ")" : "off";
        // HTTP's 200 body, made once for every connection to write duplicates of.
        HttpServerHandler.Replies replies = settings.protocol().httpMessages()
                ? new HttpServerHandler.Replies(settings.responseSize()) : null;

        ChannelGroup connections = new DefaultChannelGroup("nbench-netty-connections", GlobalEventExecutor.INSTANCE);
        ServerBootstrap b = new ServerBootstrap()
                .group(boss, workers)
                .channel(config.serverChannel())
                .childHandler(new ChannelInitializer<Channel>() {
                    // netty.executor measures what Netty users write to leave the event loop: a handler
                    // added with an EventExecutorGroup. Netty 4.2 deprecates that API (5 removes it), which is
                    // why it is offered only as an option, beside nbench's own pool (--executor-threads).
                    @SuppressWarnings("deprecation")
                    @Override
                    protected void initChannel(Channel ch) {
                        connections.add(ch); // a group forgets a channel once it is closed
                        if (tls != null) {
                            SslHandler ssl = tls.newHandler(ch.alloc());
                            // --tls-handshake-timeout (SslHandler's own default is also 10 s): a stalled peer's
                            // handshake fails, reported by handshakeErrors as a protocol error.
                            ssl.setHandshakeTimeoutMillis(settings.tls().handshakeTimeout().toMillis());
                            ch.pipeline().addLast(ssl, handshakeErrors);
                        }
                        Protocol protocol = settings.protocol();
                        // Any protocol runs its own server codec (CodecServerDecoder, over NIO views of the
                        // buffers). A protocol whose response is its request, or which is Framed's layout, keeps
                        // the handlers Netty users write instead, chosen by those properties: measured (bench/
                        // perf.sh, 3 interleaved rounds, 50x16x1k, native vs the generic decoder for both), echo
                        // through the codec made 0.77x the messages at 1.6x the CPU per message (a copy in and
                        // out instead of writing back the buffer read), framed 1.01x inline but 0.76x on
                        // --executor-threads; and these handlers are what the netty figures measure (with
                        // netty.executor's hand-off), which must not move under the users' feet.
                        if (protocol.responseIsRequest()) {
                            // With netty.executor all its events run on the group, writability changes too, so
                            // backpressure (autoRead off while the channel is unwritable) works as without it:
                            // a write from the executor counts as pending at once, before the event loop runs it.
                            ch.pipeline().addLast(executor, new EchoServerHandler(events, idle));
                        } else if (protocol.httpMessages()) {
                            // HTTP as Netty users serve it: Netty's request decoder and response encoder (not the
                            // shared parser; the decoder refusing folded header lines, as the shared parser), the
                            // request pipeline behind it as for every protocol.
                            HttpServerHandler handler = new HttpServerHandler(replies, settings.maxFrame(), events,
                                    idle, settings.runtime());
                            ch.pipeline().addLast(handler.bytesIn()).addLast(HttpServerHandler.codec())
                                    .addLast(handler);
                        } else if (!protocol.framedLayout()) {
                            ch.pipeline().addLast(new CodecServerDecoder(protocol, settings.codec(), events, idle,
                                    settings.runtime()));
                        } else {
                            FramedServerDecoder decoder = new FramedServerDecoder(settings.maxFrame(), events, idle,
                                    settings.runtime(), executor != null);
                            ch.pipeline().addLast(decoder);
                            if (executor != null) {
                                ch.pipeline().addLast(executor, new WorkHandler(decoder));
                            }
                        }
                    }
                });
        if (!config.local) {
            b.option(ChannelOption.SO_REUSEADDR, true).option(ChannelOption.SO_BACKLOG, settings.listen().backlog());
            if (settings.listen().tcpFastOpen() > 0) {
                b.option(ChannelOption.TCP_FASTOPEN, settings.listen().tcpFastOpen());
            }
        }
        config.applyChannelOptions(b::childOption);
        InetSocketAddress bind = settings.bind();
        if (config.local && bind.getPort() == 0) {
            // LocalChannel has no ephemeral ports: pick a free name.
            bind = new InetSocketAddress(bind.getAddress(), LOCAL_PORTS.incrementAndGet());
        }
        ChannelFuture bound = b.bind(config.address(bind)).awaitUninterruptibly();
        if (!bound.isSuccess()) {
            boss.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            workers.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            if (executor != null) {
                executor.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            }
            idle.close();
            throw Failures.bind(bound.cause(), settings.bind().getHostString() + ":" + settings.bind().getPort());
        }
        // After ServerBootstrap's acceptor, which pauses accepting for a second when accept fails (e.g.
        // "Too many open files") and passes the exception on: log it at a rate limit instead of letting
        // it reach the pipeline's tail, which logs a stack trace per failed accept.
        bound.channel().pipeline().addLast(new AcceptErrors(events));
        return new NettyServer(boss, workers, bound.channel(), config, settings.listen(), bind, idle, connections,
                executor, executorDescription, settings.tls() == null ? null : config.tlsEngine + " engine, " + settings.tls().describe());
    }

    private static final AtomicInteger LOCAL_PORTS = new AtomicInteger(40_000);

    @Override
    public InetSocketAddress address() {
        return config.local ? localAddress : (InetSocketAddress) channel.localAddress();
    }

    @Override
    public Map<String, String> effectiveConfig() {
        Map<String, String> m = new LinkedHashMap<>(config.describe());
        if (!config.local) {
            m.putAll(listen.describe());
            m.put("executor", executorDescription);
        }
        if (tlsDescription != null) {
            m.put("tls", tlsDescription);
        }
        return m;
    }

    @Override
    public void close() {
        channel.close().awaitUninterruptibly();
        boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
        // Each connection is closed on its event loop before that loop is told to stop, so its channelInactive
        // (which counts what it still owes dropped, and the connection closed) is queued while the loop still
        // runs every task. Left to shutdownGracefully with quiet period 0, a loop busy with a task when the
        // shutdown lands skips closing its channels (SingleThreadIoEventLoop.run only calls
        // IoHandler.prepareToDestroy when it sees the shutdown after runIo, and confirmShutdown then ends it at
        // once): the connection stayed open, never counted closed, nor what it owed counted dropped.
        connections.close().awaitUninterruptibly();
        workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
        if (executor != null) {
            executor.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
        }
        idle.close();
    }
}
