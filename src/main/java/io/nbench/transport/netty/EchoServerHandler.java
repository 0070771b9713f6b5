package io.nbench.transport.netty;

import io.nbench.transport.support.IdleConnections;
import io.nbench.transport.ServerEvents;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/** RFC 862 echo: writes back each buffer as read, flushing once per read batch. */
final class EchoServerHandler extends ChannelInboundHandlerAdapter {

    private final ServerEvents events;
    private final ServerConnectionAccount account;
    private IdleConnections.Watch watch;

    EchoServerHandler(ServerEvents events, IdleConnections idle) {
        this.events = events;
        this.account = new ServerConnectionAccount(events, idle);
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        watch = account.opened(ctx);
        if (watch == null) {
            return;
        }
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        account.closed(null);
        super.channelInactive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        events.echoed(((ByteBuf) msg).readableBytes());
        watch.progress();
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
        if (cause instanceof Error) {
            events.fatal(cause);
        }
    }
}
