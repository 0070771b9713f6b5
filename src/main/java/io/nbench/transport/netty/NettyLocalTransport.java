package io.nbench.transport.netty;

import io.nbench.transport.BaseTransport;
import io.nbench.transport.ClientSettings;
import io.nbench.transport.ClientTransport;
import io.nbench.transport.RunningServer;
import io.nbench.transport.ServerEvents;
import io.nbench.transport.ServerSettings;
import io.nbench.transport.TransportOption;
import java.io.IOException;
import java.util.List;

/**
 * Netty's in-JVM LocalChannel: the same pipeline as {@code netty} without the kernel, to show the
 * framework's own cost. The port of a bind or connect address names the local channel; it
 * interoperates only with itself, inside one JVM.
 */
public final class NettyLocalTransport extends BaseTransport {

    private static final List<TransportOption> OPTIONS = List.of(
            TransportOption.choice("netty-local.allocator", "adaptive", List.of("adaptive", "pooled", "unpooled"),
                    "ByteBuf allocator, as netty.allocator"),
            new TransportOption("netty-local.recv", "adaptive", "adaptive|fixed:SIZE", "receive buffer sizing, as netty.recv",
                    text -> {
                        if (!text.equals("adaptive")) {
                            NettyTransport.fixedRecvSize(text);
                        }
                        return text;
                    }),
            NettyTransport.httpCodec("netty-local."));

    /** No written event: a local write is a hand-off to the peer channel, not a send. */
    public NettyLocalTransport() {
        super("netty-local", "Netty 4.2 LocalChannel (in-JVM, no kernel), same pipeline as netty", OPTIONS,
                null);
    }

    @Override
    public boolean inJvm() {
        return true;
    }

    @Override
    public RunningServer startServer(ServerSettings settings, ServerEvents events) throws IOException {
        return NettyServer.start(settings, events, NettyConfig.local(settings.options(), settings.socket()));
    }

    @Override
    public ClientTransport newClient(ClientSettings settings) throws IOException {
        return new NettyClient(settings, NettyConfig.local(settings.options(), settings.socket()));
    }
}
