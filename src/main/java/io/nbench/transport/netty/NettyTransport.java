package io.nbench.transport.netty;

import io.nbench.protocol.StreamedRequest;
import io.nbench.transport.Availability;
import io.nbench.transport.BaseTransport;
import io.nbench.transport.ClientSettings;
import io.nbench.transport.ClientTransport;
import io.nbench.transport.OptionValues;
import io.nbench.transport.RunningServer;
import io.nbench.transport.ServerEvents;
import io.nbench.transport.ServerSettings;
import io.nbench.transport.TransportOption;
import io.nbench.units.Sizes;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Netty 4.2 over TCP: {@code MultiThreadIoEventLoopGroup} with epoll, io_uring or NIO. */
public final class NettyTransport extends BaseTransport {

    static final String IO = "netty.io";
    static final String ALLOCATOR = "netty.allocator";
    static final String RECV = "netty.recv";
    static final String EXECUTOR = "netty.executor";
    /** After the transport's prefix: {@code netty.http-codec}, {@code netty-local.http-codec}. */
    static final String HTTP_CODEC_KEY = "http-codec";

    /** What reads the client's HTTP responses ({@code --url}): netty's codec by default, as a Netty user's would. */
    static TransportOption httpCodec(String prefix) {
        return TransportOption.choice(prefix + HTTP_CODEC_KEY, "netty", List.of("netty", "nbench"),
                "client, --url: read HTTP responses with Netty's HttpResponseDecoder (objects per response) "
                + "or with nbench's allocation-free parser, which the other transports share");
    }

    private static final List<TransportOption> OPTIONS = List.of(
            TransportOption.choice(IO, "auto", List.of("auto", "nio", "epoll", "io_uring"),
                    "I/O type; auto = the first available of epoll, io_uring, nio (the output says which ran)"),
            TransportOption.choice(ALLOCATOR, "adaptive", List.of("adaptive", "pooled", "unpooled"),
                    "ByteBuf allocator: Netty 4.2's adaptive default, the pooled arena allocator, or unpooled"),
            new TransportOption(RECV, "adaptive", "adaptive|fixed:SIZE",
                    "receive buffer sizing: AdaptiveRecvByteBufAllocator or a fixed size per read",
                    text -> {
                        if (!text.equals("adaptive")) {
                            fixedRecvSize(text);
                        }
                        return text;
                    }),
            TransportOption.choice(NettyTls.ENGINE, "jdk", NettyTls.ENGINES,
                    "with --tls: the TLS engine under SslHandler, the JDK's SSLEngine or OpenSSL (netty-tcnative's "
                    + "BoringSSL, linux-x86_64)"),
            TransportOption.threadsOrOff(EXECUTOR,
                    "server: run the request handler (and --work), or the echo handler, on a "
                    + "DefaultEventExecutorGroup of N threads, "
                    + "Netty's own way to take work off the event loop; its queues are unbounded, so it never "
                    + "rejects; ignored with --executor-threads (nbench's bounded pool) and --work-mode delay"),
            httpCodec("netty."));

    static int fixedRecvSize(String text) {
        if (!text.startsWith("fixed:")) {
            throw new IllegalArgumentException("expected adaptive or fixed:SIZE, e.g. fixed:64k");
        }
        long size = Sizes.parse(text.substring("fixed:".length()));
        if (size < 64) {
            throw new IllegalArgumentException("a fixed receive buffer must hold at least 64 bytes");
        }
        return (int) size;
    }

    public NettyTransport() {
        super("netty", "Netty 4.2, MultiThreadIoEventLoopGroup with epoll, io_uring or NIO", OPTIONS,
                "the write's ChannelPromise completed: Netty handed the bytes to the kernel (write/writev, "
                + "or the io_uring send completion)");
    }

    @Override
    public List<String> details() {
        List<String> lines = new ArrayList<>();
        for (NettyIo io : NettyIo.values()) {
            String why = io.unavailableReason();
            lines.add("netty.io=" + io.label + ": " + (why == null ? "available" : "unavailable (" + why + ")"));
        }
        lines.add("netty.io=auto picks: " + NettyIo.choose("auto").io().label);
        lines.add(NettyTls.describeOpenSsl());
        return lines;
    }

    /** SslHandler with the JDK's engine always; with OpenSSL where netty-tcnative loads. */
    @Override
    public Availability tls(OptionValues options) {
        return NettyTls.availability(options.string(NettyTls.ENGINE));
    }

    /** epoll and io_uring set TCP_FASTOPEN (ChannelOption.TCP_FASTOPEN); Netty's NIO channels cannot. */
    @Override
    public Availability serverTcpFastOpen(OptionValues options) {
        String requested = options.string(IO);
        NettyIo.Choice choice;
        try {
            choice = NettyIo.choose(requested);
        } catch (IllegalStateException e) {
            return Availability.yes(); // the I/O asked for is not here: starting the server says so
        }
        if (choice.io().hasTcpFastOpen()) {
            return Availability.yes();
        }
        return Availability.no(requested.equals("auto")
                ? "netty runs nio here (-O netty.io=auto: " + choice.describe() + "), which has no TCP_FASTOPEN"
                : "netty.io=nio has no TCP_FASTOPEN (Java's NIO channels): use -O netty.io=epoll or io_uring");
    }

    /**
     * Queued responses up to Netty's write high water mark (64 KiB) and one more response, one request and
     * the unanswered rest of a read (each at most 64 KiB: larger ones stream).
     */
    @Override
    public long serverMemoryPerConnection(ServerSettings settings) {
        return 4 * StreamedRequest.WHOLE;
    }

    @Override
    public RunningServer startServer(ServerSettings settings, ServerEvents events) throws IOException {
        return NettyServer.start(settings, events);
    }

    @Override
    public ClientTransport newClient(ClientSettings settings) throws IOException {
        return new NettyClient(settings);
    }
}
