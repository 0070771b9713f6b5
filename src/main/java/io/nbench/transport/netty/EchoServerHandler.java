package io.nbench.transport.netty;

import io.nbench.transport.support.IdleConnections;
import io.nbench.transport.ServerEvents;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/** RFC 862 echo: writes back each buffer as read, flushing once per read batch. */
final class EchoServerHandler extends ChannelInboundHandlerAdapter {

    private final ServerEvents events;
    private final IdleConnections idle;
    private IdleConnections.Watch watch;

    EchoServerHandler(ServerEvents events, IdleConnections idle) {
        this.events = events;
        this.idle = idle;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        if (!events.connectionOpened()) {
            refused = true; // over --max-connections
            ctx.close();
            return;
        }
        Channel channel = ctx.channel();
        watch = idle.watch(channel::close);
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (!refused) {
            events.connectionClosed();
            idle.forget(watch);
        }
        super.channelInactive(ctx);
    }

    /** Closed at once: the server already served --max-connections. */
    private boolean refused;

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
