package io.nbench.transport.netty;

import io.nbench.transport.OptionValues;
import io.nbench.transport.SocketSettings;
import io.netty.buffer.AdaptiveByteBufAllocator;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.ServerChannel;
import io.netty.channel.local.LocalAddress;
import io.netty.channel.local.LocalChannel;
import io.netty.channel.local.LocalIoHandler;
import io.netty.channel.local.LocalServerChannel;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.internal.PlatformDependent;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The resolved netty options and shared socket settings, applied the same way by client and server, for
 * TCP ({@code netty}: epoll, io_uring or NIO) or the in-JVM LocalChannel ({@code netty-local}).
 */
final class NettyConfig {

    /** Null for the in-JVM LocalChannel. */
    final NettyIo.Choice io;
    final boolean local;
    final String allocatorName;
    final ByteBufAllocator allocator;
    final String recvName;
    final SocketSettings socket;
    final int ioThreads;
    /** netty.executor: threads of the DefaultEventExecutorGroup running the request handler; 0 = off. */
    final int executorThreads;
    /** netty.http-codec: the client reads HTTP responses with Netty's decoder (true) or nbench's parser. */
    final boolean nettyHttpCodec;
    /** Its key for this transport ({@code netty.http-codec} or {@code netty-local.http-codec}), for the header. */
    final String httpCodecKey;
    /** netty.tls-engine: jdk or openssl, used with --tls; null for the in-JVM LocalChannel (no TLS). */
    final String tlsEngine;

    static {
        // Netty's leak detector samples one buffer in 128 and records a stack trace for it: tens of bytes
        // per message on average, which is Netty debugging cost, not transport cost. Off unless the
        // user asks for it with -Dio.netty.leakDetection.level.
        if (System.getProperty("io.netty.leakDetection.level") == null
                && System.getProperty("io.netty.leakDetectionLevel") == null) {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        }
        // Netty's io.netty.buffer.checkAccessible and io.netty.buffer.checkBounds (read once, when the
        // buffer classes load) are deliberately left on. Off, a buffer used after its release reads or
        // writes memory the pool has handed to another buffer, silently, instead of failing; and what
        // they cost is small once the client reuses its batch buffers (the reference-count check on a
        // fresh buffer per batch was 3.8 % of the I/O thread at 50 x 16 x 1 KiB, mostly a cache miss;
        // with reused buffers every check in the thread's profile together is under 1 %).
    }

    /** TCP: the {@code netty.*} options. */
    NettyConfig(OptionValues options, SocketSettings socket) {
        this(NettyIo.choose(options.string(NettyTransport.IO)), "netty.", options, socket);
    }

    /** In-JVM LocalChannel: the {@code netty-local.*} options. */
    static NettyConfig local(OptionValues options, SocketSettings socket) {
        return new NettyConfig(null, "netty-local.", options, socket);
    }

    private NettyConfig(NettyIo.Choice io, String prefix, OptionValues options, SocketSettings socket) {
        this.io = io;
        this.local = io == null;
        this.allocatorName = options.string(prefix + "allocator");
        this.allocator = switch (allocatorName) {
            case "pooled" -> PooledByteBufAllocator.DEFAULT;
            case "unpooled" -> UnpooledByteBufAllocator.DEFAULT;
            default -> new AdaptiveByteBufAllocator();
        };
        this.recvName = options.string(prefix + "recv");
        this.socket = socket;
        this.ioThreads = socket.ioThreads(); // resolved by IoThreads before it gets here
        this.executorThreads = local ? 0 : options.integer(NettyTransport.EXECUTOR);
        this.httpCodecKey = prefix + NettyTransport.HTTP_CODEC_KEY;
        this.nettyHttpCodec = options.string(httpCodecKey).equals("netty");
        this.tlsEngine = local ? null : options.string(NettyTls.ENGINE);
    }

    RecvByteBufAllocator recvAllocator() {
        if (recvName.startsWith("fixed:")) {
            return new FixedRecvByteBufAllocator(NettyTransport.fixedRecvSize(recvName));
        }
        return new AdaptiveRecvByteBufAllocator();
    }

    IoHandlerFactory handlerFactory() {
        return local ? LocalIoHandler.newFactory() : io.io().handlerFactory();
    }

    Class<? extends ServerChannel> serverChannel() {
        return local ? LocalServerChannel.class : io.io().serverChannel();
    }

    Class<? extends Channel> channel() {
        return local ? LocalChannel.class : io.io().socketChannel();
    }

    /** LocalChannel addresses are names: nbench maps the port number to one. */
    SocketAddress address(InetSocketAddress inet) {
        return local ? new LocalAddress("nbench-local-" + inet.getPort()) : inet;
    }

    /** Applies the per-connection options through {@code option} (Bootstrap.option or childOption). */
    void applyChannelOptions(BiConsumer<ChannelOption<Object>, Object> option) {
        set(option, ChannelOption.ALLOCATOR, allocator);
        set(option, ChannelOption.RECVBUF_ALLOCATOR, recvAllocator());
        if (local) {
            return; // no socket: TCP options do not apply
        }
        set(option, ChannelOption.TCP_NODELAY, socket.tcpNoDelay());
        set(option, ChannelOption.SO_KEEPALIVE, socket.keepAlive());
        if (socket.sndbuf() > 0) {
            set(option, ChannelOption.SO_SNDBUF, socket.sndbuf());
        }
        if (socket.rcvbuf() > 0) {
            set(option, ChannelOption.SO_RCVBUF, socket.rcvbuf());
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> void set(BiConsumer<ChannelOption<Object>, Object> option, ChannelOption<T> key, T value) {
        option.accept((ChannelOption<Object>) (ChannelOption<?>) key, value);
    }

    Map<String, String> describe() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("io", local ? "local (in-JVM LocalChannel, no kernel)" : io.describe());
        m.put("io-threads", Integer.toString(ioThreads));
        m.put("allocator", allocatorName);
        m.put("recv", recvName);
        m.put("unsafe", Boolean.toString(PlatformDependent.hasUnsafe()));
        m.put("leak-detection", ResourceLeakDetector.getLevel().name().toLowerCase(Locale.ROOT));
        if (local) {
            return m;
        }
        m.putAll(socket.describe());
        return m;
    }
}
