package io.nbench.transport.netty;

import io.nbench.protocol.Framed;
import io.nbench.protocol.HttpOnFramed;
import io.nbench.protocol.StreamedRequest;
import io.nbench.transport.ServerEvents;
import io.nbench.transport.ServerRuntime;
import io.nbench.transport.support.IdleConnections;
import io.nbench.transport.support.RequestPipeline;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/**
 * Server side of the framed protocol, as a Netty user would write it: a {@link ByteToMessageDecoder}
 * that checks each header as soon as its bytes arrive (so an oversized frame is refused before its
 * payload is read), answers complete requests straight from the cumulation buffer and flushes once per
 * read batch. Responses go out in request order. A request or response over 64 KiB is not held whole but
 * streamed ({@link StreamedRequest}), so what a connection holds does not grow with --max-frame.
 *
 * <p>Each complete request goes to the connection's {@link RequestPipeline}, which does its work and counts
 * it. With nbench's business pool ({@code --executor-threads}) the pipeline writes its response from the
 * pool thread once its work is done, in request order; requests are then held whole (no streaming: the
 * response cannot leave before the work). Without the pool, {@code --work} runs right here on the event
 * loop, or with {@code -O netty.executor} in {@link WorkHandler}.
 */
final class FramedServerDecoder extends BackpressuredServerDecoder {

    private final int maxFrame;
    private final ServerEvents events;
    private final ServerConnectionAccount account;
    /** The connection's requests; made when it is active (its writer needs the context). */
    private RequestPipeline<ByteBuf> requests;
    private IdleConnections.Watch watch;
    private final ServerRuntime runtime;
    /** netty.executor: requests go on to {@link WorkHandler} on the executor group (unless the pipeline pools them). */
    private final boolean handOffConfigured;
    /** Set with {@link #requests}: whether responses go to {@link WorkHandler} instead of the channel. */
    private boolean handOff;
    /** Set with {@link #requests}: whether every response is built whole (no streaming). */
    private boolean whole;

    FramedServerDecoder(int maxFrame, ServerEvents events, IdleConnections idle) {
        this(maxFrame, events, idle, ServerRuntime.INLINE, false);
    }

    FramedServerDecoder(int maxFrame, ServerEvents events, IdleConnections idle, ServerRuntime runtime,
                        boolean handOff) {
        super(events);
        this.maxFrame = maxFrame;
        this.events = events;
        this.account = new ServerConnectionAccount(events, idle);
        this.runtime = runtime;
        this.handOffConfigured = handOff;
    }

    /** The connection's pipeline, for {@link WorkHandler} (which runs after this decoder's channelActive). */
    RequestPipeline<ByteBuf> requests() {
        return requests;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        watch = account.opened(ctx);
        if (watch == null) {
            return;
        }
        ChannelResponses<ByteBuf> writer = new ChannelResponses<>(ctx,
                id -> Unpooled.wrappedBuffer(Framed.rejectedResponse(id)), Framed.RESPONSE_HEADER);
        requests = handOffConfigured ? RequestPipeline.handingOff(runtime, events, writer)
                : RequestPipeline.of(runtime, events, writer);
        handOff = requests.handsOff();
        whole = requests.wholeResponses();
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        account.closed(requests);
        super.channelInactive(ctx);
    }

    /** The peer sent an HTTP request, answered 400: the channel closes once that is written. */
    private boolean answeredHttp;

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (answeredHttp) {
            in.skipBytes(in.readableBytes()); // closing after the answer to an HTTP request: the rest is dropped
            return;
        }
        while (in.isReadable() || stream.active()) {
            if (pausedByPeer(ctx)) {
                return;
            }
            if (stream.active()) {
                if (!streamPayload(ctx, in)) {
                    return;
                }
                continue;
            }
            int r = in.readerIndex();
            int readable = in.readableBytes();
            if (readable < 4) {
                return;
            }
            long frameLength = in.getUnsignedInt(r);
            String bad = Framed.checkFrameLength(frameLength, maxFrame);
            if (bad == null && readable >= 8) {
                bad = Framed.checkResponseLength(in.getUnsignedInt(r + 4), maxFrame);
            }
            if (bad != null) {
                int http = HttpOnFramed.recognise(i -> in.getUnsignedByte(r + i), readable);
                if (http == HttpOnFramed.MORE) {
                    return;
                }
                in.skipBytes(readable);
                if (http == HttpOnFramed.YES) {
                    events.protocolError(String.valueOf(ctx.channel().remoteAddress()), HttpOnFramed.ERROR);
                    answeredHttp = true;
                    ctx.writeAndFlush(Unpooled.wrappedBuffer(HttpOnFramed.ANSWER))
                            .addListener(ChannelFutureListener.CLOSE);
                    events.refusalAnswered(HttpOnFramed.ANSWER.length);
                    return;
                }
                events.protocolError(String.valueOf(ctx.channel().remoteAddress()), bad);
                ctx.close();
                return;
            }
            if (readable < 8) {
                return;
            }
            int responseLength = (int) in.getUnsignedInt(r + 4);
            if (!whole && StreamedRequest.streams(frameLength, responseLength)) {
                if (readable < Framed.REQUEST_HEADER) {
                    return;
                }
                startStream(ctx, in, frameLength, responseLength);
                continue;
            }
            long total = 4 + frameLength;
            if (readable < total) {
                return;
            }
            int payload = (int) (frameLength - Framed.MIN_REQUEST_FRAME);
            long id = in.getLong(r + Framed.REQUEST_ID_OFFSET);
            int responseBytes = responseLength > 0 ? Framed.RESPONSE_HEADER + responseLength : 0;
            if (handOff) {
                // One message per request, one-way ones too (no response): each has its work to do.
                ByteBuf response = responseLength > 0 ? response(ctx, in, r, id, payload, responseLength) : null;
                in.skipBytes((int) total);
                watch.progress();
                out.add(requests.handedOff((int) total, responseBytes, response));
                continue;
            }
            ByteBuf response = responseLength > 0 ? response(ctx, in, r, id, payload, responseLength) : null;
            in.skipBytes((int) total);
            watch.progress();
            requests.decoded(id, (int) total, responseBytes, response);
        }
    }

    private static ByteBuf response(ChannelHandlerContext ctx, ByteBuf in, int r, long id, int payload,
                                    int responseLength) {
        ByteBuf response = ctx.alloc().ioBuffer(Framed.RESPONSE_HEADER + responseLength);
        response.writeInt(Framed.responseFrameLength(Framed.STATUS_OK, responseLength));
        response.writeLong(id);
        response.writeByte(Framed.STATUS_OK);
        int copy = Math.min(payload, responseLength);
        response.writeBytes(in, r + Framed.REQUEST_HEADER, copy);
        response.writeZero(responseLength - copy);
        return response;
    }

    /** A request too large to hold whole: its response header now, its payload as it arrives. */
    private final StreamedRequest stream = new StreamedRequest();

    /**
     * Zeros for the padding of streamed responses, shared by every connection and thread, which only read
     * it. Not wrapped read-only: the native transports copy a buffer without a memory address before
     * writing it, which would allocate what the sharing saves.
     */
    private static final ByteBuf ZEROS = Unpooled.unreleasableBuffer(
            Unpooled.directBuffer(StreamedRequest.WHOLE).writeZero(StreamedRequest.WHOLE));

    private void startStream(ChannelHandlerContext ctx, ByteBuf in, long frameLength, int responseLength) {
        long id = in.getLong(in.readerIndex() + Framed.REQUEST_ID_OFFSET);
        in.skipBytes(Framed.REQUEST_HEADER);
        stream.start(frameLength, responseLength);
        if (responseLength > 0) {
            ByteBuf header = ctx.alloc().ioBuffer(Framed.RESPONSE_HEADER);
            header.writeInt(Framed.responseFrameLength(Framed.STATUS_OK, responseLength));
            header.writeLong(id);
            header.writeByte(Framed.STATUS_OK);
            ctx.write(header, ctx.voidPromise());
        }
    }

    /**
     * Consumes what has arrived of a streamed request's payload, writing the part that belongs in the
     * response; when the payload is complete, writes the padding and counts the request. False when all
     * input is consumed and more payload is to come.
     */
    private boolean streamPayload(ChannelHandlerContext ctx, ByteBuf in) {
        int n = Math.min(in.readableBytes(), stream.payloadLeft());
        int copy = stream.consume(n);
        if (copy > 0) {
            ByteBuf chunk = ctx.alloc().ioBuffer(copy);
            chunk.writeBytes(in, copy);
            ctx.write(chunk, ctx.voidPromise());
        }
        in.skipBytes(n - copy);
        if (stream.payloadLeft() > 0) {
            return false;
        }
        // The padding costs no memory: slices of one shared buffer, however long the response.
        for (int left = stream.padding(); left > 0; left -= StreamedRequest.WHOLE) {
            ctx.write(ZEROS.retainedSlice(0, Math.min(left, StreamedRequest.WHOLE)), ctx.voidPromise());
        }
        stream.finish();
        watch.progress();
        requests.decoded(0, stream.requestBytes(), stream.responseBytes(), null); // its response is written already
        return true;
    }

    @Override
    void batchEnded(ChannelHandlerContext ctx) {
        ctx.flush();
        // The batch's requests are answered, and their processing time ends, once the socket took their bytes.
        account.flushed(ctx, requests);
    }

    @Override
    void resume(ChannelHandlerContext ctx) throws Exception {
        channelRead(ctx, Unpooled.EMPTY_BUFFER);
        ctx.flush();
        account.flushed(ctx, requests);
    }
}
