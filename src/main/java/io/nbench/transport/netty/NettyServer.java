package io.nbench.transport.netty;

import io.nbench.protocol.Protocol;
import io.nbench.transport.RunningServer;
import io.nbench.transport.ServerEvents;
import io.nbench.transport.ServerSettings;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The Netty server: one acceptor loop, {@code --io-threads} worker loops, a decoder per connection. */
final class NettyServer implements RunningServer {

    private final EventLoopGroup boss;
    private final EventLoopGroup workers;
    private final Channel channel;
    private final NettyConfig config;

    private NettyServer(EventLoopGroup boss, EventLoopGroup workers, Channel channel, NettyConfig config) {
        this.boss = boss;
        this.workers = workers;
        this.channel = channel;
        this.config = config;
    }

    static NettyServer start(ServerSettings settings, ServerEvents events) throws IOException {
        NettyConfig config = new NettyConfig(settings.options(), settings.socket());
        EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("nbench-netty-accept", true),
                config.io.io().handlerFactory());
        EventLoopGroup workers = new MultiThreadIoEventLoopGroup(config.ioThreads,
                new DefaultThreadFactory("nbench-netty-server", true), config.io.io().handlerFactory());
        ServerBootstrap b = new ServerBootstrap()
                .group(boss, workers)
                .channel(config.io.io().serverChannel())
                .option(ChannelOption.SO_REUSEADDR, true)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (settings.protocol() == Protocol.ECHO) {
                            ch.pipeline().addLast(new EchoServerHandler(events));
                        } else {
                            ch.pipeline().addLast(new FramedServerDecoder(settings.maxFrame(), events));
                        }
                    }
                });
        config.applyChannelOptions(b::childOption);
        ChannelFuture bound = b.bind(settings.bind()).awaitUninterruptibly();
        if (!bound.isSuccess()) {
            boss.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            workers.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            Throwable cause = bound.cause();
            throw new IOException("cannot listen on " + settings.bind().getHostString() + ":" + settings.bind().getPort()
                    + ": " + cause.getMessage(), cause);
        }
        return new NettyServer(boss, workers, bound.channel(), config);
    }

    @Override
    public InetSocketAddress address() {
        return (InetSocketAddress) channel.localAddress();
    }

    @Override
    public Map<String, String> effectiveConfig() {
        return config.describe();
    }

    @Override
    public void close() {
        channel.close().awaitUninterruptibly();
        boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
        workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
    }
}
