package io.nbench.transport.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;

/**
 * Completes each request the connection writes (its per-message bytes only) with the request's
 * constant tail, taken from one buffer per connection: a retained duplicate shares the bytes and has
 * indices of its own, so Netty's outbound buffer can consume it while the next request reuses the same
 * memory. The two writes follow each other on the event loop, so requests written from several sender
 * threads never interleave on the wire; the caller's promise goes with the tail, whose last byte is the
 * request's.
 *
 * <p>The tail comes from the pooled allocator whatever {@code netty.allocator} says: it is allocated once
 * per connection, and only a pooled buffer's retained duplicate is recycled instead of allocated per
 * request (the adaptive and unpooled allocators create a new duplicate object each time).
 */
final class SharedPayloadWriter extends ChannelOutboundHandlerAdapter {

    private final ByteBuf tail;

    SharedPayloadWriter(byte[] request, int from, int length) {
        this.tail = PooledByteBufAllocator.DEFAULT.directBuffer(length, length).writeBytes(request, from, length);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        // The header's outcome is the tail's: a failure shows once, through the caller's promise.
        ctx.write(msg, ctx.channel().unsafe().voidPromise());
        ctx.write(tail.retainedDuplicate(), promise);
    }

    /** Last on the event loop after the channel closed: no write reaches this handler any more. */
    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        tail.release();
    }
}
