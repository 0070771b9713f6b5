package io.nbench.transport.netty;

import io.nbench.transport.ServerEvents;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * The last handler of the listening channel: an accept that failed (the process is out of descriptors,
 * say) becomes one rate-limited line. Netty's ServerBootstrap acceptor, before it, has already stopped
 * accepting for a second; connections already open are served meanwhile.
 */
@ChannelHandler.Sharable
final class AcceptErrors extends ChannelInboundHandlerAdapter {

    private final ServerEvents events;

    AcceptErrors(ServerEvents events) {
        this.events = events;
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof Error) {
            events.fatal(cause);
            return;
        }
        events.trouble("accept", "cannot accept connections: " + cause.getMessage() + "; serving the open "
                + "ones and retrying each second (raise the descriptor limit with ulimit -n)");
    }
}
