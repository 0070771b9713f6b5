package io.nbench.transport.netty;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.channel.uring.IoUringSocketChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * Netty's I/O types: which are available here and why not, and the handler factory and channel classes
 * of each. {@code auto} picks the first available of epoll, io_uring, nio (epoll first: on loopback
 * request/response it measured at least as fast as io_uring here, see the README).
 */
enum NettyIo {
    EPOLL("epoll"), IO_URING("io_uring"), NIO("nio");

    final String label;

    NettyIo(String label) {
        this.label = label;
    }

    static NettyIo parse(String text) {
        for (NettyIo io : values()) {
            if (io.label.equals(text)) {
                return io;
            }
        }
        throw new IllegalArgumentException("unknown netty.io " + text);
    }

    /** Null when available, else why not (Netty's own unavailability cause). */
    String unavailableReason() {
        try {
            switch (this) {
                case EPOLL:
                    return Epoll.isAvailable() ? null : cause(Epoll.unavailabilityCause());
                case IO_URING:
                    return IoUring.isAvailable() ? null : cause(IoUring.unavailabilityCause());
                default:
                    return null;
            }
        } catch (LinkageError e) {
            return e.toString();
        }
    }

    private static String cause(Throwable t) {
        if (t == null) {
            return "unavailable";
        }
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String m = root.getMessage();
        return root.getClass().getSimpleName() + (m != null ? ": " + m.lines().findFirst().orElse("") : "");
    }

    /**
     * Resolves the user's {@code netty.io} choice: the type to use, plus notes on what auto skipped.
     * Throws {@link IllegalStateException} with the reason when an explicit choice is unavailable.
     */
    static Choice choose(String requested) {
        if (!requested.equals("auto")) {
            NettyIo io = parse(requested);
            String why = io.unavailableReason();
            if (why != null) {
                throw new IllegalStateException("netty.io=" + requested + " is not available here (" + why
                        + "): use -O netty.io=auto or nio");
            }
            return new Choice(io, List.of());
        }
        List<String> skipped = new ArrayList<>();
        for (NettyIo io : values()) {
            String why = io.unavailableReason();
            if (why == null) {
                return new Choice(io, skipped);
            }
            skipped.add(io.label + " unavailable: " + why);
        }
        return new Choice(NIO, skipped);
    }

    record Choice(NettyIo io, List<String> skipped) {
        String describe() {
            return skipped.isEmpty() ? io.label : io.label + " (" + String.join("; ", skipped) + ")";
        }
    }

    /** Whether this I/O type can set TCP_FASTOPEN on a listening socket: Netty's NIO channels cannot. */
    boolean hasTcpFastOpen() {
        return this != NIO;
    }

    /**
     * Whether the kernel lets a server use TCP Fast Open (the server bit of {@code net.ipv4.tcp_fastopen}):
     * without it Netty skips the option silently, so nbench asks first.
     */
    boolean tcpFastOpenServerEnabled() {
        switch (this) {
            case EPOLL:
                return Epoll.isTcpFastOpenServerSideAvailable();
            case IO_URING:
                return IoUring.isTcpFastOpenServerSideAvailable();
            default:
                return false;
        }
    }

    IoHandlerFactory handlerFactory() {
        switch (this) {
            case EPOLL:
                return EpollIoHandler.newFactory();
            case IO_URING:
                return IoUringIoHandler.newFactory();
            default:
                return NioIoHandler.newFactory();
        }
    }

    Class<? extends SocketChannel> socketChannel() {
        switch (this) {
            case EPOLL:
                return EpollSocketChannel.class;
            case IO_URING:
                return IoUringSocketChannel.class;
            default:
                return NioSocketChannel.class;
        }
    }

    Class<? extends ServerSocketChannel> serverChannel() {
        switch (this) {
            case EPOLL:
                return EpollServerSocketChannel.class;
            case IO_URING:
                return IoUringServerSocketChannel.class;
            default:
                return NioServerSocketChannel.class;
        }
    }
}
