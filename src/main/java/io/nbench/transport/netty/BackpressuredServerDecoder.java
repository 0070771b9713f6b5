package io.nbench.transport.netty;

import io.nbench.transport.ServerEvents;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

/**
 * What the framed and the generic-codec server decoders share: they answer each read batch's requests with one
 * flush at its end, and stop reading while the peer does not read its responses, so one slow client cannot make
 * the server buffer without bound (what a connection holds is its unanswered input, bounded by the receive
 * buffer and one request, plus the outbound bytes up to the high water mark and one response).
 */
abstract class BackpressuredServerDecoder extends ByteToMessageDecoder {

    private final ServerEvents events;
    /** Decoding stopped because the peer does not read its responses; resumed when it drains. */
    private boolean paused;

    BackpressuredServerDecoder(ServerEvents events) {
        this.events = events;
    }

    /**
     * From decode, before answering a request: true, with reading stopped, when the responses already queued
     * exceed the high water mark (small requests can ask for large responses); decode then returns, and
     * {@link #channelReadComplete} flushes what is queued.
     */
    final boolean pausedByPeer(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable()) {
            return false;
        }
        paused = true;
        ctx.channel().config().setAutoRead(false);
        return true;
    }

    /** At the end of a read batch: write and flush its responses, and end their processing time. */
    abstract void batchEnded(ChannelHandlerContext ctx);

    /** On the event loop once the peer drained: decode what waited in the cumulation, then as {@link #batchEnded}. */
    abstract void resume(ChannelHandlerContext ctx) throws Exception;

    @Override
    public final void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        batchEnded(ctx);
        if (!ctx.channel().config().isAutoRead()) {
            // Paused (auto-read is off only while the peer does not read its responses). The base class
            // takes "no message decoded and auto-read off" for "needs more data" and asks for another
            // read, which would read the paused peer's input into the cumulation without bound; these
            // decoders never pass a message on, so skip that and only do the rest of its bookkeeping.
            discardSomeReadBytes();
            ctx.fireChannelReadComplete();
            return;
        }
        super.channelReadComplete(ctx);
    }

    @Override
    public final void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        boolean writable = ctx.channel().isWritable();
        ctx.channel().config().setAutoRead(writable);
        if (writable && paused) {
            paused = false;
            // Decode what was left waiting in the cumulation, as a task of its own: this event can fire
            // inside a flush, inside our own decode, which must not be entered twice.
            ctx.executor().execute(() -> {
                try {
                    resume(ctx);
                } catch (Throwable e) {
                    // An OutOfMemoryError too: left to the executor, it would only be logged as a failed task.
                    exceptionCaught(ctx, e);
                }
            });
        }
        super.channelWritabilityChanged(ctx);
    }

    @Override
    public final void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
        if (cause instanceof Error) {
            // An OutOfMemoryError (heap or direct) reaches a handler instead of killing the event loop.
            events.fatal(cause);
        }
    }
}
