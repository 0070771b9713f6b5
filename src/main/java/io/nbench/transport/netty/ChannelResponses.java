package io.nbench.transport.netty;

import io.nbench.transport.support.RequestPipeline;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.util.ReferenceCounted;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.LongFunction;

/**
 * Writes a connection's responses (framed's ByteBufs, HTTP's FullHttpResponses): on the event loop into the
 * read batch, which channelReadComplete flushes; from the pool thread each flushed at once (the pool has no
 * read batch to coalesce with). Netty hands a write from outside the event loop to the loop as a task, in
 * call order, so the order the pipeline sends in is the order on the wire.
 *
 * @param <R> the response message
 */
final class ChannelResponses<R extends ReferenceCounted> implements RequestPipeline.Writer<R> {

    private final ChannelHandlerContext ctx;
    private final LongFunction<Object> rejection;
    private final int rejectionBytes;

    /** {@code rejection} makes the protocol's answer to request {@code id} refused by the pool, of {@code rejectionBytes}. */
    ChannelResponses(ChannelHandlerContext ctx, LongFunction<Object> rejection, int rejectionBytes) {
        this.ctx = ctx;
        this.rejection = rejection;
        this.rejectionBytes = rejectionBytes;
    }

    @Override
    public void write(R response) {
        ctx.write(response, ctx.voidPromise());
    }

    @Override
    public void send(R response) {
        ctx.writeAndFlush(response, ctx.voidPromise());
    }

    @Override
    public int reject(long id, R response) {
        if (response != null) {
            response.release();
        }
        ctx.writeAndFlush(rejection.apply(id), ctx.voidPromise());
        return rejectionBytes;
    }

    @Override
    public void discard(R response) {
        response.release();
    }

    /**
     * The channel's own event loop on epoll, whose deadlines a timerfd keeps to the microsecond: delayed responses
     * are completed and written there. Not on Netty's NIO loop, whose select times out in whole milliseconds, nor
     * io_uring's or a local channel's, not measured: those keep the delay timer's thread.
     */
    @Override
    public ScheduledExecutorService loop() {
        return ctx.channel() instanceof EpollSocketChannel ? ctx.channel().eventLoop() : null;
    }

    /**
     * Closes after the responses sent so far, even when called on the event loop: a pool thread's responses are
     * tasks queued on the loop, not yet written, and a close done now (the I/O thread ending the connection
     * after HTTP's {@code Connection: close}, the pool having answered first) would go before them and lose
     * them. Queued as a task too, the close runs after them, in call order.
     */
    @Override
    public void end() {
        ctx.executor().execute(() -> ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE));
    }
}
