package io.nbench.transport.netty;

import io.nbench.transport.ServerEvents;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/** RFC 862 echo: writes back each buffer as read, flushing once per read batch. */
final class EchoServerHandler extends ChannelInboundHandlerAdapter {

    private final ServerEvents events;

    EchoServerHandler(ServerEvents events) {
        this.events = events;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        events.connectionOpened();
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        events.connectionClosed();
        super.channelInactive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        events.echoed(((ByteBuf) msg).readableBytes());
        ctx.write(msg, ctx.voidPromise());
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ctx.flush();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        ctx.channel().config().setAutoRead(ctx.channel().isWritable());
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }
}
