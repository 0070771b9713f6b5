package io.nbench.transport.netty;

import io.nbench.transport.ConnectionHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * Right before the client's SslHandler, which starts the handshake when the channel becomes active: tells the
 * engine the TCP connect is done and the handshake begins, on the event loop at that very moment (the connecting
 * thread wakes later), then steps out of the pipeline.
 */
final class HandshakeStart extends ChannelInboundHandlerAdapter {

    private final ConnectionHandler handler;

    HandshakeStart(ConnectionHandler handler) {
        this.handler = handler;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        handler.onHandshakeStart();
        ctx.fireChannelActive();
        ctx.pipeline().remove(this);
    }
}
