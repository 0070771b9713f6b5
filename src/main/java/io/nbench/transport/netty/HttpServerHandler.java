package io.nbench.transport.netty;

import io.nbench.protocol.http.HttpRequestParser;
import io.nbench.protocol.http.HttpResponses;
import io.nbench.transport.ServerEvents;
import io.nbench.transport.ServerRuntime;
import io.nbench.transport.support.IdleConnections;
import io.nbench.transport.support.RequestPipeline;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseEncoder;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;

/**
 * The http protocol on Netty as a Netty user writes an HTTP server: Netty's {@link HttpRequestDecoder} (as
 * {@link StrictRequestDecoder}) decodes requests and its {@link HttpResponseEncoder} encodes
 * {@link FullHttpResponse}s, this handler answers them as the shared parser does ({@link HttpRequestParser}:
 * 200 with {@code --response-size} bytes, keep-alive and {@code Connection: close} per RFC 9112, 400 for what
 * the decoder refuses, 505 for a version other than HTTP/1.1 and HTTP/1.0, 413 for a body over
 * {@code --max-frame}, 431 for a head over 64 KiB, each closing) and hands each request to the connection's
 * {@link RequestPipeline}, so the business runtime and the counts are the other transports'. Bodies are
 * counted and dropped as they arrive, never aggregated. Bytes in are counted before the codec
 * ({@link #bytesIn}) and credited to the next request completed, so the total is exact (with pipelining one
 * request may carry the next one's first bytes).
 */
final class HttpServerHandler extends ChannelInboundHandlerAdapter {

    /** The body every 200 carries and the heads' sizes: one per server, shared by its connections. */
    static final class Replies {
        private final HttpResponses heads;
        private final ByteBuf body;
        private final String contentLength;

        Replies(int bodySize) {
            this.heads = new HttpResponses(bodySize);
            // Read-only and never released: every response writes a duplicate of it.
            this.body = Unpooled.unreleasableBuffer(Unpooled.directBuffer(bodySize)
                    .writeBytes(HttpResponses.body(bodySize)).asReadOnly());
            this.contentLength = Integer.toString(bodySize);
        }
    }

    /**
     * Netty's request decoder and response encoder, as {@link HttpServerCodec} combines them, the decoder
     * refusing folded header lines ({@link StrictRequestDecoder}: HttpServerCodec takes no decoder of the user's).
     * What the codec adds is not needed here: the methods it queues for the encoder only matter to responses
     * with a body to a HEAD or CONNECT (this handler's HEAD response has none), and its {@code maxPipelineDepth}
     * was turned off (Netty 4.2.18 failed the connection past 128 requests decoded ahead of their responses: a
     * client pipelining 499 requests in one write got 75 answers and a reset). The decoder's limits: a request
     * line and a header section up to the shared parser's. What a peer can make the server hold stays bounded
     * as on the other transports: reading pauses while the channel is unwritable, and the pool's queue bounds
     * what waits there.
     */
    static ChannelHandler[] codec() {
        return new ChannelHandler[] {new StrictRequestDecoder(new HttpDecoderConfig()
                .setMaxInitialLineLength(HttpRequestParser.MAX_HEAD).setMaxHeaderSize(HttpRequestParser.MAX_HEAD)),
            new HttpResponseEncoder()};
    }

    private final Replies replies;
    private final int maxFrame;
    private final ServerEvents events;
    private final ServerConnectionAccount account;
    private final ServerRuntime runtime;
    private IdleConnections.Watch watch;
    private RequestPipeline<FullHttpResponse> requests;
    /** An error answered or the last response handed on: what else arrives is dropped. */
    private boolean ended;
    /** Bytes read and not yet credited to a request. */
    private long unattributed;
    // The request being read.
    private boolean keepAlive;
    private boolean http10;
    private boolean head;
    private long body;

    HttpServerHandler(Replies replies, int maxFrame, ServerEvents events, IdleConnections idle, ServerRuntime runtime) {
        this.replies = replies;
        this.maxFrame = maxFrame;
        this.events = events;
        this.account = new ServerConnectionAccount(events, idle);
        this.runtime = runtime;
    }

    /** Goes before the codec: counts the bytes read, for the requests' sizes. */
    ChannelHandler bytesIn() {
        return new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                if (msg instanceof ByteBuf b) {
                    unattributed += b.readableBytes();
                }
                ctx.fireChannelRead(msg);
            }
        };
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        watch = account.opened(ctx);
        if (watch == null) {
            return;
        }
        // Through the codec's encoder, from the event loop or a pool thread.
        requests = RequestPipeline.of(runtime, events, new ChannelResponses<FullHttpResponse>(ctx,
                id -> text(HttpResponses.UNAVAILABLE, HttpResponses.UNAVAILABLE_BODY, false),
                HttpResponses.SERVICE_UNAVAILABLE.length));
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        account.closed(requests);
        super.channelInactive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (!ended && msg instanceof HttpRequest request) {
                start(ctx, request);
            }
            if (!ended && msg instanceof HttpContent content) {
                content(ctx, content);
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    private void start(ChannelHandlerContext ctx, HttpRequest request) {
        if (request.decoderResult().isFailure() && beyond64Bits(request.headers().get(HttpHeaderNames.CONTENT_LENGTH))) {
            // Netty refuses a length a long cannot hold as "not a number"; the shared parser answers it 413.
            refuse(ctx, HttpRequestParser.BODY_TOO_LARGE,
                    HttpRequestParser.tooLargeReason(HttpRequestParser.BEYOND_64_BITS, maxFrame));
            return;
        }
        if (refusedByDecoder(ctx, request.decoderResult())) {
            return;
        }
        HttpVersion version = request.protocolVersion();
        http10 = version.equals(HttpVersion.HTTP_1_0);
        if (!http10 && !version.equals(HttpVersion.HTTP_1_1)) {
            refuseVersion(ctx, version);
            return;
        }
        keepAlive = HttpUtil.isKeepAlive(request);
        head = request.method().equals(HttpMethod.HEAD);
        body = 0;
        long declared = HttpUtil.getContentLength(request, -1L);
        if (declared > maxFrame) {
            refuse(ctx, HttpRequestParser.BODY_TOO_LARGE, HttpRequestParser.tooLargeReason(declared, maxFrame));
        }
    }

    private void content(ChannelHandlerContext ctx, HttpContent content) {
        if (refusedByDecoder(ctx, content.decoderResult())) {
            return;
        }
        body += content.content().readableBytes();
        if (body > maxFrame) {
            refuse(ctx, HttpRequestParser.BODY_TOO_LARGE, HttpRequestParser.tooLargeReason(body, maxFrame));
            return;
        }
        if (content instanceof LastHttpContent) {
            complete(ctx);
        }
    }

    /** The request is whole: its response goes to the pipeline (written now, or by the pool thread). */
    private void complete(ChannelHandlerContext ctx) {
        byte[] head = replies.heads.head(keepAlive, http10);
        long bodyBytes = this.head ? 0 : replies.heads.bodySize();
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                this.head ? Unpooled.EMPTY_BUFFER : replies.body.duplicate());
        // The names as the shared parser writes them, so that both servers put the same bytes on the wire.
        response.headers().set("Content-Length", replies.contentLength);
        if (!keepAlive) {
            response.headers().set("Connection", "close");
        } else if (http10) {
            response.headers().set("Connection", "keep-alive");
        }
        int requestBytes = (int) Math.min(Integer.MAX_VALUE, unattributed);
        unattributed = 0;
        watch.progress();
        requests.decoded(0, requestBytes, (int) Math.min(Integer.MAX_VALUE, head.length + bodyBytes), response);
        if (!keepAlive) {
            ended = true;
            requests.end();
        }
    }

    /**
     * A version Netty's decoder took (any {@code NAME/major.minor}) but the shared parser refuses: HTTP/2.0 (also
     * the first line of HTTP/2's connection preface, {@code PRI * HTTP/2.0}), HTTP/1.2 or another HTTP version
     * 505, what is not HTTP 400, as the shared parser answers them.
     */
    private void refuseVersion(ChannelHandlerContext ctx, HttpVersion version) {
        if (version.protocolName().equals("HTTP") && (version.majorVersion() != 1 || version.minorVersion() < 10)) {
            // Named as the shared parser names it: HTTP/2, HTTP/1.2.
            String named = version.majorVersion() == 1 ? version.text() : "HTTP/" + version.majorVersion();
            refuse(ctx, HttpRequestParser.VERSION_NOT_SUPPORTED, named + " is not supported: use HTTP/1.1");
        } else {
            refuse(ctx, HttpRequestParser.MALFORMED,
                    "malformed HTTP request: the request line does not end with HTTP/1.1 or HTTP/1.0");
        }
    }

    /** What Netty's decoder could not parse: 400, or 431 for a line or header section over the limit. */
    /** A Content-Length of digits only whose figure is past what a long holds (2^63 - 1). */
    private static boolean beyond64Bits(String value) {
        if (value == null || value.isEmpty() || !value.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return false;
        }
        String digits = value.replaceFirst("^0+", "");
        String max = Long.toString(Long.MAX_VALUE);
        return digits.length() > max.length() || digits.length() == max.length() && digits.compareTo(max) > 0;
    }

    private boolean refusedByDecoder(ChannelHandlerContext ctx, DecoderResult result) {
        if (!result.isFailure()) {
            return false;
        }
        Throwable cause = result.cause();
        if (cause instanceof TooLongFrameException) {
            refuse(ctx, HttpRequestParser.HEAD_TOO_LARGE, "request line or header section over "
                    + HttpRequestParser.MAX_HEAD + " bytes");
        } else {
            String why = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
            refuse(ctx, HttpRequestParser.MALFORMED, "malformed HTTP request: " + why.lines().findFirst().orElse(""));
        }
        return true;
    }

    /**
     * Answers {@code status} with a one-line body and closes once it is written. Requests still in the pool are
     * dropped first, so no response of theirs follows the answer.
     */
    private void refuse(ChannelHandlerContext ctx, String status, String why) {
        ended = true;
        requests.close();
        events.protocolError(String.valueOf(ctx.channel().remoteAddress()), HttpRequestParser.logLine(status, why));
        // The encoder writes the bytes the shared parser would (as for the 503 above); counted before they leave,
        // as the shared parser counts them.
        events.refusalAnswered(HttpResponses.error(status, why).length);
        ctx.writeAndFlush(text(status, HttpResponses.oneLine(why), true)).addListener(ChannelFutureListener.CLOSE);
    }

    /** A response of {@code status} ("503 Service Unavailable") with a text body, as the shared parser writes it. */
    static FullHttpResponse text(String status, String body, boolean close) {
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.parseLine(status),
                Unpooled.copiedBuffer(body, StandardCharsets.US_ASCII));
        r.headers().set("Content-Type", "text/plain").set("Content-Length", Integer.toString(body.length()));
        if (close) {
            r.headers().set("Connection", "close");
        }
        return r;
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ctx.flush();
        account.flushed(ctx, requests);
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        // Backpressure: read nothing more while the peer does not read its responses.
        ctx.channel().config().setAutoRead(ctx.channel().isWritable());
        super.channelWritabilityChanged(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
        if (cause instanceof Error) {
            events.fatal(cause);
        }
    }
}
