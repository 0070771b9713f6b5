package io.nbench.transport.netty;

import io.nbench.protocol.Protocol;
import io.nbench.protocol.ServerCodec;
import io.nbench.transport.ServerEvents;
import io.nbench.transport.ServerRuntime;
import io.nbench.transport.support.IdleConnections;
import io.nbench.transport.support.RequestPipeline;
import io.nbench.transport.support.CodecRequests;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * Any protocol's server side on Netty: a {@link ByteToMessageDecoder} that runs the protocol's
 * {@link ServerCodec} over NIO views of the cumulation (input) and of a pooled output buffer, so a protocol
 * added to the registry is served by Netty with no code of its own. Each read batch's responses go out in
 * output buffers of {@link #OUTPUT} bytes, flushed once per batch; backpressure as in
 * {@link FramedServerDecoder} (no decoding while the channel is unwritable). Each request goes to the
 * connection's {@link RequestPipeline}; with nbench's business pool its whole response is taken out of the
 * output ({@link CodecRequests}) and written from the pool thread. {@code -O netty.executor} is not used
 * here: its work runs on the event loop, or on nbench's pool.
 */
final class CodecServerDecoder extends BackpressuredServerDecoder {

    /** Output buffer size per batch (grown to the codec's minimum when it needs more). */
    private static final int OUTPUT = 16 * 1024;

    private final Protocol protocol;
    private final ServerCodec.Settings settings;
    private final ServerEvents events;
    private final ServerConnectionAccount account;
    private final ServerRuntime runtime;
    private RequestPipeline<ByteBuffer> requests;
    private ServerCodec codec;
    private CodecRequests served;
    private boolean pooled;
    /** The output being filled by the current parse (fill mode), its ByteBuf and NIO view. */
    private ByteBuf outBuf;
    private ByteBuffer out;
    /** The connection closes (protocol error or {@link ServerCodec#CLOSE}): nothing more is decoded. */
    private boolean ended;

    CodecServerDecoder(Protocol protocol, ServerCodec.Settings settings, ServerEvents events, IdleConnections idle,
                       ServerRuntime runtime) {
        super(events);
        this.protocol = protocol;
        this.settings = settings;
        this.events = events;
        this.account = new ServerConnectionAccount(events, idle);
        this.runtime = runtime;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        IdleConnections.Watch watch = account.opened(ctx);
        if (watch == null) {
            return;
        }
        requests = RequestPipeline.of(CodecRequests.runtime(protocol, runtime), events,
                RequestPipeline.heapResponses(protocol,
                        r -> ctx.writeAndFlush(Unpooled.wrappedBuffer(r), ctx.voidPromise()),
                        // From any thread: Netty queues it behind the writes before it, then closes.
                        () -> ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE)));
        served = new CodecRequests(requests, events, watch::progress);
        pooled = served.pooled();
        codec = protocol.newServerCodec(settings, served);
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        account.closed(requests);
        super.channelInactive(ctx);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> decoded) {
        if (ended) {
            in.skipBytes(in.readableBytes()); // the connection closes: what else arrives is dropped
            return;
        }
        while (true) {
            if (pausedByPeer(ctx)) {
                return;
            }
            if (outBuf == null) {
                int size = Math.max(OUTPUT, codec.minOutput());
                outBuf = ctx.alloc().ioBuffer(size, size);
                // A view of its own, positions counted from 0 (an internal NIO buffer may be a window on a
                // larger chunk, which the codec's flip and clear would leave).
                out = outBuf.nioBuffer(0, size);
                served.output(out);
            }
            ByteBuffer view = in.nioBuffer(in.readerIndex(), in.readableBytes());
            int start = view.position();
            int result = codec.parse(view, out);
            in.skipBytes(view.position() - start);
            if (result == ServerCodec.PROTOCOL_ERROR) {
                // What came before the bad request, and the protocol's answer to it (HTTP's 400: pooled, the
                // output holds only that), then the close.
                writeAnswer(ctx);
                account.flushed(ctx, requests);
                events.protocolError(String.valueOf(ctx.channel().remoteAddress()), codec.error());
                in.skipBytes(in.readableBytes());
                ended = true;
                ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
                return;
            }
            if (result == ServerCodec.CLOSE) {
                writeOutput(ctx);
                ctx.flush();
                account.flushed(ctx, requests);
                in.skipBytes(in.readableBytes());
                ended = true;
                requests.end(); // closes once the responses before it are written
                return;
            }
            if (result == ServerCodec.NEED_INPUT) {
                return;
            }
            writeOutput(ctx); // out is full: it joins the batch (pooled: kept for its request), a fresh one next
        }
    }

    /** As {@link #writeOutput}, writing the output pooled too: on a protocol error it holds the answer to it. */
    private void writeAnswer(ChannelHandlerContext ctx) {
        if (pooled && outBuf != null && out.position() > 0) {
            ctx.writeAndFlush(outBuf.writerIndex(out.position()), ctx.voidPromise());
            outBuf = null;
            out = null;
            return;
        }
        writeOutput(ctx);
        ctx.flush();
    }

    /**
     * Writes what the parses put in the output buffer (none: releases it) and starts afresh. Pooled, the
     * responses were taken out as their requests completed; what is left is the start of one still arriving.
     */
    private void writeOutput(ChannelHandlerContext ctx) {
        if (outBuf == null) {
            return;
        }
        int produced = out.position();
        if (pooled) {
            served.spill(); // the start of a response whose request is still arriving: kept for it
            outBuf.release();
        } else if (produced > 0) {
            ctx.write(outBuf.writerIndex(produced), ctx.voidPromise());
        } else {
            outBuf.release();
        }
        outBuf = null;
        out = null;
    }

    @Override
    void batchEnded(ChannelHandlerContext ctx) {
        writeOutput(ctx);
        ctx.flush();
        account.flushed(ctx, requests);
    }

    @Override
    void resume(ChannelHandlerContext ctx) {
        // Straight to decode, not channelRead: the codec may owe output with no input left (the rest of
        // a streamed response), and the base class calls decode only while there is input.
        decode(ctx, internalBuffer(), List.of());
        writeOutput(ctx);
        ctx.flush();
        account.flushed(ctx, requests);
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        if (outBuf != null) {
            outBuf.release();
            outBuf = null;
            out = null;
        }
    }
}
