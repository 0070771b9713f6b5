package io.nbench.transport.netty;

import io.nbench.transport.support.RequestPipeline;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * The request handler of {@code -O netty.executor=N}, added to the pipeline with a DefaultEventExecutorGroup
 * as a Netty user takes blocking work off the event loop: each message is one request handed off by
 * {@link FramedServerDecoder} with its ready response (none for a one-way request); this does the request's
 * work on the group's thread (through the connection's {@link RequestPipeline}, which counts it answered at
 * the flush), then writes the response, and flushes once per read batch. The group runs one channel's
 * events on one of its threads, in order, so responses keep request order. Processing time here runs from
 * this thread taking the request to the flush: the wait in the group's (unbounded) queue is not seen.
 */
final class WorkHandler extends ChannelInboundHandlerAdapter {

    private final FramedServerDecoder decoder;

    /** The work and clock come from {@code decoder}'s connection pipeline. */
    WorkHandler(FramedServerDecoder decoder) {
        this.decoder = decoder;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf response = decoder.requests().handedOffWork((RequestPipeline.HandOff<ByteBuf>) msg);
        if (response != null) {
            ctx.write(response, ctx.voidPromise());
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ctx.flush();
        RequestPipeline<ByteBuf> requests = decoder.requests();
        if (requests != null) {
            requests.handedOffFlushed();
        }
        ctx.fireChannelReadComplete();
    }
}
