package io.nbench.transport.netty;

import io.nbench.protocol.Framed;
import io.nbench.protocol.Protocol;
import io.nbench.protocol.RequestTemplate;
import io.nbench.transport.ClientConnection;
import io.nbench.transport.ConnectionHandler;
import io.nbench.transport.ErrorKind;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.DecoderException;
import java.io.IOException;

/**
 * One Netty client connection: encodes requests into pooled buffers and turns decoded response frames
 * into {@link ConnectionHandler} events.
 *
 * <p>Sends issued from this channel's event loop while it is processing reads (the io driver sending
 * the next message from a response callback) are written without a flush and flushed once when the read
 * batch completes, like Netty's flush consolidation: one syscall for all responses of a read rather than
 * one per message.
 */
final class NettyClientConnection extends ChannelInboundHandlerAdapter implements ClientConnection {

    private final RequestTemplate template;
    private final ConnectionHandler handler;
    private final boolean notifyWritten;
    private final boolean echo;
    private final byte[] bytes;
    private final int[] idOffsets;
    private final ByteBufPayloadView view = new ByteBufPayloadView();
    private volatile Channel channel;
    /** Event loop only: inside channelRead, before channelReadComplete. */
    private boolean inRead;
    private boolean flushPending;

    NettyClientConnection(RequestTemplate template, ConnectionHandler handler, boolean notifyWritten) {
        this.template = template;
        this.handler = handler;
        this.notifyWritten = notifyWritten;
        this.echo = template.protocol() == Protocol.ECHO;
        this.bytes = template.bytes();
        this.idOffsets = template.idOffsets();
    }

    void attach(Channel channel) {
        this.channel = channel;
    }

    @Override
    public void send(long id) {
        Channel ch = channel;
        ByteBuf buf = ch.alloc().ioBuffer(bytes.length);
        buf.writeBytes(bytes);
        for (int at : idOffsets) {
            buf.setLong(at, id);
        }
        ChannelPromise promise;
        if (notifyWritten) {
            promise = ch.newPromise();
            promise.addListener(f -> {
                if (f.isSuccess()) {
                    handler.onWritten(id);
                }
            });
        } else {
            promise = ch.voidPromise();
        }
        if (inRead && ch.eventLoop().inEventLoop()) {
            ch.write(buf, promise);
            flushPending = true;
        } else {
            ch.writeAndFlush(buf, promise);
        }
    }

    @Override
    public void close() {
        Channel ch = channel;
        if (ch != null) {
            ch.close();
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        inRead = true;
        ByteBuf frame = (ByteBuf) msg;
        try {
            int r = frame.readerIndex();
            int n = frame.readableBytes();
            if (echo) {
                handler.onResponse(ConnectionHandler.UNKNOWN_ID, Framed.STATUS_OK, view.wrap(frame, r, n));
                return;
            }
            if (n < Framed.RESPONSE_FIXED) {
                handler.onError(ErrorKind.PROTOCOL, "response frame of " + n + " bytes is shorter than id and status");
                ctx.close();
                return;
            }
            long id = frame.getLong(r);
            int status = frame.getUnsignedByte(r + 8);
            if (status != Framed.STATUS_OK && status != Framed.STATUS_REJECTED) {
                handler.onError(ErrorKind.PROTOCOL, "response status " + status + " is neither 0 (ok) nor 1 (rejected)");
                ctx.close();
                return;
            }
            handler.onResponse(id, status, view.wrap(frame, r + Framed.RESPONSE_FIXED, n - Framed.RESPONSE_FIXED));
        } finally {
            frame.release();
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        inRead = false;
        if (flushPending) {
            flushPending = false;
            ctx.flush();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        handler.onClosed();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof DecoderException) {
            handler.onError(ErrorKind.PROTOCOL, "bad response frame: " + cause.getMessage());
        } else if (cause instanceof IOException) {
            handler.onError(ErrorKind.READ, "connection error: " + cause.getMessage());
        } else {
            handler.onError(ErrorKind.READ, "connection error: " + cause);
        }
        ctx.close();
    }
}
