package io.nbench.transport.netty;

import io.nbench.transport.ServerEvents;
import io.nbench.transport.support.IdleConnections;
import io.nbench.transport.support.RequestPipeline;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundBuffer;

/**
 * One server connection's accounts, kept alike by every Netty server handler (framed, echo, any codec, HTTP):
 * counted open unless the server already serves {@code --max-connections} (then closed at once and never
 * counted closed), watched for {@code --idle-timeout}, and when it closes, its request pipeline closed (what it
 * still owes counted dropped), counted closed and no longer watched; and its requests counted answered once their
 * responses are in the socket ({@link #flushed}). One per channel, on its event loop.
 */
final class ServerConnectionAccount implements ChannelFutureListener {

    private final ServerEvents events;
    private final IdleConnections idle;
    private IdleConnections.Watch watch;
    /** Closed at once: the server already served --max-connections. */
    private boolean refused;
    /** The pipeline whose requests {@link #flushed} answers once the socket took their bytes; null: none yet. */
    private RequestPipeline<?> pending;
    /** Per marker write not completed yet, oldest first (a ring): the requests of the batch it ends. */
    private int[] batches = new int[4];
    private int head;
    private int waiting;

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

    /**
     * After a {@code ctx.flush()} of a read batch: its requests are answered ({@link RequestPipeline#flushed(int)})
     * once the socket has taken every byte flushed so far: at once when the flush wrote them all (the channel's
     * outbound buffer holds no flushed message), else when an empty marker written behind them completes (Netty
     * completes writes in order). That costs a promise per batch the socket could not take at once, none
     * otherwise; this object listens to every marker. A channel closed meanwhile fails its markers: its close
     * counts their requests dropped.
     */
    void flushed(ChannelHandlerContext ctx, RequestPipeline<?> requests) {
        if (requests == null) {
            return;
        }
        int n = requests.batchEnded();
        if (n == 0) {
            return;
        }
        ChannelOutboundBuffer out = ctx.channel().unsafe().outboundBuffer();
        if (out == null) {
            return; // closed: the close drops what was not sent
        }
        if (waiting == 0 && out.isEmpty()) {
            requests.flushed(n);
            return;
        }
        pending = requests;
        if (waiting == batches.length) {
            int[] more = new int[batches.length * 2];
            for (int i = 0; i < waiting; i++) {
                more[i] = batches[(head + i) % batches.length];
            }
            batches = more;
            head = 0;
        }
        batches[(head + waiting) % batches.length] = n;
        waiting++;
        ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(this);
    }

    /** The oldest marker of {@link #flushed} was written (or failed: the channel is closing, and drops the rest). */
    @Override
    public void operationComplete(ChannelFuture written) {
        int n = batches[head];
        head = (head + 1) % batches.length;
        waiting--;
        if (written.isSuccess()) {
            pending.flushed(n);
        }
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
