package io.nbench.transport.netty;

import io.nbench.transport.ServerEvents;
import io.nbench.transport.support.TlsAlerts;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.NotSslRecordException;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.ssl.SslHandshakeTimeoutException;
import javax.net.ssl.SSLException;

/**
 * Right behind the server's SslHandler: a handshake that fails (a plain-text client, a client that trusts nothing
 * the server offers) is counted and logged as a protocol error naming the fix, once per connection, and the
 * connection closed; the exception Netty passes on for it is not a second report.
 */
@ChannelHandler.Sharable
final class TlsHandshakeErrors extends ChannelInboundHandlerAdapter {

    private final ServerEvents events;

    TlsHandshakeErrors(ServerEvents events) {
        this.events = events;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof SslHandshakeCompletionEvent done && !done.isSuccess()) {
            events.protocolError(String.valueOf(ctx.channel().remoteAddress()), describe(done.cause()));
            if (done.cause() instanceof NotSslRecordException) {
                alertPlainTextClient(ctx);
            }
            ctx.close();
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) throws Exception {
        Throwable tls = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
        if (tls instanceof SSLException) {
            ctx.close(); // reported by the handshake's event
            return;
        }
        super.exceptionCaught(ctx, cause);
    }

    /**
     * Netty's SslHandler closes on a record that is not TLS without an alert ({@link TlsAlerts}): written here from
     * the SslHandler's own context, so it goes to the socket as it is (the engine, failed, could not encrypt it and
     * must not), before the close that follows this event.
     */
    private static void alertPlainTextClient(ChannelHandlerContext ctx) {
        ChannelHandlerContext tls = ctx.pipeline().context(SslHandler.class);
        if (tls != null) {
            tls.writeAndFlush(Unpooled.wrappedBuffer(TlsAlerts.unexpectedMessage()));
        }
    }

    static String describe(Throwable cause) {
        if (cause instanceof NotSslRecordException) {
            // Its message quotes every byte received in hex: the first ones say what a plain-text client sent.
            String m = String.valueOf(cause.getMessage());
            return "not TLS (" + (m.length() > 72 ? m.substring(0, 72) + "..." : m) + "): this server runs with --tls, "
                    + "so clients need --tls too";
        }
        if (cause instanceof SslHandshakeTimeoutException) {
            return "TLS " + cause.getMessage() + " (a client that connects and sends nothing, or too "
                    + "slowly; raise --tls-handshake-timeout for a slow network)";
        }
        return "TLS handshake failed: " + cause.getMessage();
    }
}
