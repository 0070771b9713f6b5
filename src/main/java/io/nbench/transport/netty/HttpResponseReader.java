package io.nbench.transport.netty;

import io.nbench.protocol.ClientCodec;
import io.nbench.protocol.http.HttpClientCodec;
import io.nbench.transport.ConnectionHandler;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;

/**
 * The netty client's HTTP responses as Netty's decoder ({@link KnownMethodResponseDecoder}) hands them on: a
 * response head, then its body in pieces up to a {@link LastHttpContent}, at which the response is complete (its
 * last byte has been read) and reported with its status, as the shared parser's transports report it: the status
 * code, with {@link ClientCodec#CLOSES} when the server closes after it ({@link HttpUtil#isKeepAlive}). Interim 1xx
 * responses are skipped: the final response that follows answers the request. What the shared parser refuses is
 * refused with its words (a body delimited by the close, a body over {@code --max-frame}), and what Netty's decoder
 * cannot parse is one protocol error naming Netty's reason.
 *
 * <p>Not allocation-free, unlike the rest of the client: Netty's decoder makes a response, its headers and a content
 * object per piece of body for every response. That is what measuring with Netty's codec means; {@code -O
 * netty.http-codec=nbench} reads the same responses with nbench's parser instead.
 */
final class HttpResponseReader extends ChannelInboundHandlerAdapter {

    private final ConnectionHandler handler;
    private final NettyClientConnection connection;
    private final KnownMethodResponseDecoder decoder;
    /**
     * The connection's bytes the responses handed on so far took: a response's own are what the decoder has
     * consumed since (its interim 1xx responses included), all of the head and of the body (chunk sizes too).
     */
    private long counted;
    private final boolean headRequests;
    private final int maxFrame;
    /** What the engine is handed as the payload: HTTP responses are counted by status, never verified. */
    private final ByteBufPayloadView noPayload = new ByteBufPayloadView().wrap(Unpooled.EMPTY_BUFFER, 0, 0);
    // The response being read.
    private boolean interim;
    private int status;
    private long body;
    /** A protocol error closed the connection: what the decoder still hands on is dropped. */
    private boolean failed;

    HttpResponseReader(ConnectionHandler handler, NettyClientConnection connection,
                       KnownMethodResponseDecoder decoder, boolean headRequests, int maxFrame) {
        this.handler = handler;
        this.connection = connection;
        this.decoder = decoder;
        this.headRequests = headRequests;
        this.maxFrame = maxFrame;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (!failed && msg instanceof HttpResponse response) {
                start(ctx, response);
            }
            if (!failed && msg instanceof HttpContent content) {
                content(ctx, content);
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    private void start(ChannelHandlerContext ctx, HttpResponse response) {
        if (refusedByDecoder(ctx, response.decoderResult())) {
            return;
        }
        int code = response.status().code();
        if (code < 100 || code > 599) {
            fail(ctx, HttpClientCodec.badStatus(statusText(code)));
            return;
        }
        interim = response.status().codeClass() == HttpStatusClass.INFORMATIONAL && code != 101;
        if (interim) {
            return; // its empty LastHttpContent follows, then the final response
        }
        boolean bodyless = headRequests || code == 204 || code == 304;
        if (!bodyless && !HttpUtil.isContentLengthSet(response) && !HttpUtil.isTransferEncodingChunked(response)) {
            fail(ctx, HttpClientCodec.NO_LENGTH);
            return;
        }
        long declared = bodyless ? 0 : HttpUtil.getContentLength(response, 0L);
        if (declared > maxFrame) {
            fail(ctx, HttpClientCodec.bodyTooLarge(declared, maxFrame));
            return;
        }
        status = code | (HttpUtil.isKeepAlive(response) ? 0 : ClientCodec.CLOSES);
        body = 0;
    }

    private void content(ChannelHandlerContext ctx, HttpContent content) {
        if (refusedByDecoder(ctx, content.decoderResult()) || interim) {
            return;
        }
        body += content.content().readableBytes();
        if (body > maxFrame) {
            fail(ctx, HttpClientCodec.bodyTooLarge(body, maxFrame));
            return;
        }
        if (content instanceof LastHttpContent) {
            // The decoder hands each piece on as soon as it has consumed it: what it has not is a later response's.
            long consumed = connection.received() - decoder.undecoded();
            int wireBytes = (int) (consumed - counted);
            counted = consumed;
            handler.onResponse(ConnectionHandler.UNKNOWN_ID, status, noPayload, wireBytes);
        }
    }

    /** The status code's digits as the peer sent them ("099", which Netty reads as 99), else {@code code}'s. */
    private String statusText(int code) {
        byte[] head = connection.readHead(counted);
        StringBuilder digits = new StringBuilder();
        if (head.length > 9 && head[0] == 'H' && head[8] == ' ') {
            for (int i = 9; i < head.length && head[i] >= '0' && head[i] <= '9'; i++) {
                digits.append((char) head[i]);
            }
        }
        return digits.length() > 0 ? digits.toString() : Integer.toString(code);
    }

    /** What Netty's decoder could not parse: its reason, in the words the shared parser's errors use. */
    private boolean refusedByDecoder(ChannelHandlerContext ctx, DecoderResult result) {
        if (!result.isFailure()) {
            return false;
        }
        Throwable cause = result.cause();
        String message = cause.getMessage() == null ? "" : cause.getMessage();
        String why = cause instanceof TooLongFrameException
                ? "its status line or head is longer than " + HttpClientCodec.MAX_HEAD + " bytes"
                // Netty 4.2's words for it: the shared parser's, so that every transport says the same.
                : message.startsWith("Content-Length are not allowed in HTTP/1.1 messages that contains a "
                        + "Transfer-Encoding") ? HttpClientCodec.BOTH_LENGTHS
                : "Netty's decoder says " + (cause.getMessage() == null ? cause.getClass().getSimpleName()
                        : cause.getMessage().lines().findFirst().orElse(""));
        fail(ctx, why);
        return true;
    }

    private void fail(ChannelHandlerContext ctx, String reason) {
        failed = true;
        handler.onProtocolError(HttpClientCodec.notHttp(reason), connection.readHead(counted));
        ctx.close();
    }

    /** What the decoder throws (it turns parse errors into the results above): the connection's error. */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        connection.exceptionCaught(ctx, cause);
    }
}
