package io.nbench.transport.netty;

import io.nbench.transport.ServerEvents;
import io.nbench.transport.support.IdleConnections;
import io.nbench.transport.support.RequestPipeline;
import io.netty.channel.ChannelHandlerContext;

/**
 * One server connection's accounts, kept alike by every Netty server handler (framed, echo, any codec, HTTP):
 * counted open unless the server already serves {@code --max-connections} (then closed at once and never
 * counted closed), watched for {@code --idle-timeout}, and when it closes, its request pipeline closed (what it
 * still owes counted dropped), counted closed and no longer watched. One per channel, on its event loop.
 */
final class ServerConnectionAccount {

    private final ServerEvents events;
    private final IdleConnections idle;
    private IdleConnections.Watch watch;
    /** Closed at once: the server already served --max-connections. */
    private boolean refused;

    ServerConnectionAccount(ServerEvents events, IdleConnections idle) {
        this.events = events;
        this.idle = idle;
    }

    /**
     * From {@code channelActive}: the connection's idle watch, or null when it is over {@code --max-connections}
     * (the channel is closing; the handler sets up nothing more).
     */
    IdleConnections.Watch opened(ChannelHandlerContext ctx) {
        if (!events.connectionOpened()) {
            refused = true;
            ctx.close();
            return null;
        }
        watch = idle.watch(ctx.channel()::close);
        return watch;
    }

    /** From {@code channelInactive}: {@code requests} (null: none yet, or a protocol without requests) closed. */
    void closed(RequestPipeline<?> requests) {
        if (refused) {
            return;
        }
        if (requests != null) {
            requests.close();
        }
        events.connectionClosed();
        idle.forget(watch);
    }
}
