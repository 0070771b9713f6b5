package io.nbench.transport.netty;

import io.nbench.protocol.ClientCodec;
import io.nbench.protocol.Framed;
import io.nbench.protocol.PeerBytes;
import io.nbench.protocol.RequestTemplate;
import io.nbench.protocol.ResponseHead;
import io.nbench.protocol.http.HttpClientCodec;
import io.nbench.transport.ClientConnection;
import io.nbench.transport.ConnectionHandler;
import io.nbench.transport.ErrorKind;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.DuplexChannel;
import java.io.IOException;

/**
 * One Netty client connection: encodes requests into pooled buffers and decodes responses into
 * {@link ConnectionHandler} events.
 *
 * <p><b>Memory per request in flight.</b> A request whose constant tail is long
 * ({@link RequestTemplate#sharedTailLength()}) is written as its per-message bytes (header and id, a
 * pooled buffer of a few dozen bytes) followed by a retained duplicate of one read-only payload buffer
 * per connection ({@link SharedPayloadWriter}), so a window of 1,000 requests of 1 MiB queued in
 * Netty's outbound buffer holds 1 MiB of payload, not 1 GiB. Shorter requests are copied whole, at
 * most {@link RequestTemplate#MIN_SHARED_TAIL} plus the header each.
 *
 * <p>Sends issued from this channel's event loop while it is processing reads (the io driver sending
 * the next message from a response callback) are gathered: requests of up to {@link #GATHER_MAX} bytes
 * go one after the other into one batch buffer, which is written and flushed once when the read batch
 * completes; the batch buffers are the event loop's, reused, and already hold copies of the request, so
 * a request costs its connection's first bytes and its id ({@link PreparedBatches}). One buffer, one
 * outbound-buffer entry and one write() per read batch, where a write per request costs a pooled
 * allocation, a trip down the pipeline, an outbound-buffer entry and an iovec each: together about a
 * tenth of the event loop's time at 50 connections x window 16. The C reference client does the same
 * (one write per read batch). Larger requests keep their shared tail
 * (see below) and are written one by one, flushed once per read batch.
 *
 * <p><b>Responses are decoded where the socket read put them.</b> Not a {@code ByteToMessageDecoder}:
 * its cumulation copies every read whole into the cumulation buffer (and grows it) whenever the previous
 * read ended inside a frame, which with a pipelined window is nearly every read, so every received byte
 * was copied once more (removing that copy cut CPU per message at 5 KiB by a quarter to a half). Here
 * complete frames are decoded in the read buffer itself, and only the one frame that straddles two reads
 * is put together in {@link #carry}: at most one frame's bytes copied per read, whatever its size.
 */
final class NettyClientConnection extends ChannelInboundHandlerAdapter implements ClientConnection {

    private final RequestTemplate template;
    private final ConnectionHandler handler;
    private final boolean notifyWritten;
    private final ClientCodec codec;
    /** The response payload asked for, and where a response's payload starts: the codec's questions. */
    private final int responseLength;
    private final byte[] bytes;
    private final int[] idOffsets;
    /** Bytes encoded per request: the whole request, or only its header when the tail is shared. */
    private final int encoded;
    private final int maxFrame;
    private final ByteBufPayloadView view = new ByteBufPayloadView();
    /** What frame found besides the length, read at once: one per connection, no object per response. */
    private final ResponseHead head = new ResponseHead();
    private volatile Channel channel;
    /** Event loop only: inside channelRead, before channelReadComplete. */
    private boolean inRead;
    private boolean flushPending;

    /**
     * Largest request gathered into a read batch's buffer. Bounded so that what waits in the outbound
     * buffer when the server stops reading stays proportionate: a request this size costs its full
     * length queued, a larger one only its header (its tail is shared).
     */
    static final int GATHER_MAX = 16 * 1024;
    /** Whether sends inside a read batch are gathered (a write event per request needs them apart). */
    private final boolean gather;
    /**
     * Where gathered requests enter the pipeline: below {@link SharedPayloadWriter} when there is one,
     * since they are complete already and must not get a second tail.
     */
    private ChannelHandlerContext gatherOut;
    /**
     * Event loop only: requests gathered in this read batch into a fresh buffer (all prepared buffers
     * were still queued in the channel), not yet written; null when none.
     */
    private ByteBuf batch;
    /** Event loop only: the loop's batch buffers, reused with copies of the request in them. */
    private PreparedBatches prepared;
    /** Whether {@link #prepared} is this connection's own (released with it) rather than its loop's. */
    private boolean ownBatches;
    /**
     * Event loop only: the start of a frame that the last read ended inside, completed from the next
     * read; null until a frame first straddles two reads, then kept (grown to the largest such frame).
     */
    private ByteBuf carry;
    /** The largest carry buffer kept between straddling frames. */
    private static final int CARRY_KEPT = 64 * 1024;
    /** Event loop only: a protocol error closed the connection; what is still read is dropped. */
    private boolean failed;
    /**
     * Whether responses are HTTP read by Netty's decoder ({@link KnownMethodResponseDecoder}, then
     * {@link HttpResponseReader}) after this handler, which then only brackets each read and passes it on.
     */
    private final boolean nettyHttp;
    /** HTTP (whichever parser): a server may close the connection while requests are still going out. */
    private final boolean http;
    /** Event loop only: the read being passed to Netty's decoder, retained meanwhile; null between reads. */
    private ByteBuf passing;
    /**
     * Event loop only, with Netty's HTTP decoder: every byte read so far, which {@link HttpResponseReader} counts
     * out to the responses as the decoder completes them (Netty's decoder says no response's length).
     */
    private long received;

    /** Every byte read so far (Netty's HTTP decoder only). Event loop only. */
    long received() {
        return received;
    }
    private int passingFrom;

    /** A connection whose responses are framed by its template's codec (nbench's parser for HTTP). */
    NettyClientConnection(RequestTemplate template, ConnectionHandler handler, boolean notifyWritten, int maxFrame) {
        this(template, handler, notifyWritten, maxFrame, false);
    }

    NettyClientConnection(RequestTemplate template, ConnectionHandler handler, boolean notifyWritten, int maxFrame,
                          boolean nettyHttp) {
        this.nettyHttp = nettyHttp;
        this.http = template.protocol().httpMessages();
        this.template = template;
        this.maxFrame = maxFrame;
        this.handler = handler;
        this.notifyWritten = notifyWritten;
        this.codec = template.codec();
        this.responseLength = template.responseLength();
        this.bytes = template.bytes();
        this.idOffsets = template.idOffsets();
        this.encoded = template.sharedTailLength() > 0 ? template.perMessageLength() : bytes.length;
        this.gather = !notifyWritten && bytes.length <= GATHER_MAX;
    }

    /** Adds this connection's handlers to a new channel's pipeline, with batch buffers of its own. */
    void initPipeline(ChannelPipeline pipeline) {
        initPipeline(pipeline, new PreparedBatches());
        ownBatches = true;
    }

    /**
     * Adds this connection's handlers to a new channel's pipeline; its read batches are gathered in
     * {@code loopBatches}, shared with the other connections of the channel's event loop.
     */
    void initPipeline(ChannelPipeline pipeline, PreparedBatches loopBatches) {
        this.prepared = loopBatches;
        int tail = template.sharedTailLength();
        if (tail > 0) {
            pipeline.addLast(new SharedPayloadWriter(bytes, encoded, tail));
        }
        pipeline.addLast(this);
        if (nettyHttp) {
            boolean headRequests = template.codec() instanceof HttpClientCodec http && http.headRequests();
            KnownMethodResponseDecoder decoder = new KnownMethodResponseDecoder(headRequests);
            pipeline.addLast(decoder, new HttpResponseReader(handler, this, decoder, headRequests, maxFrame));
        }
        gatherOut = tail > 0 ? pipeline.context(SharedPayloadWriter.class) : pipeline.context(this);
    }

    void attach(Channel channel) {
        this.channel = channel;
    }

    @Override
    public void send(long id) {
        Channel ch = channel;
        if (gather && inRead && ch.eventLoop().inEventLoop()) {
            gatherInBatch(ch, id);
            return;
        }
        ByteBuf buf = ch.alloc().ioBuffer(encoded);
        buf.writeBytes(bytes, 0, encoded);
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

    /**
     * Event loop, inside a read batch: adds the request to the batch, in a prepared buffer when one is
     * free (its id stamped into a copy already there), else copied whole into a fresh buffer.
     */
    private void gatherInBatch(Channel ch, long id) {
        if (prepared.activeFor(this)) {
            if (prepared.add(id)) {
                return;
            }
            writeBatch();
        }
        ByteBuf b = batch;
        if (b != null && b.writableBytes() < bytes.length) {
            writeBatch();
            b = null;
        }
        if (b == null) {
            if (prepared.begin(this, template)) {
                prepared.add(id); // a free buffer has room for one request at least
                return;
            }
            b = ch.alloc().ioBuffer(Math.max(PreparedBatches.CAPACITY, bytes.length));
            batch = b;
        }
        int at = b.writerIndex();
        b.writeBytes(bytes);
        for (int off : idOffsets) {
            b.setLong(at + off, id);
        }
    }

    /** Hands the batch to the pipeline, unflushed: the read batch's end flushes. */
    private void writeBatch() {
        ByteBuf b;
        if (prepared.activeFor(this)) {
            b = prepared.take();
        } else {
            b = batch;
            batch = null;
        }
        if (b != null) {
            gatherOut.write(b, gatherOut.voidPromise());
            flushPending = true;
        }
    }

    @Override
    public void close() {
        Channel ch = channel;
        if (ch != null) {
            ch.close();
        }
    }

    /**
     * Decodes the complete responses at the start of {@code in}, in place: no slice or frame object per
     * response, and the handler sees the payload where it lies. Stops at the first incomplete frame,
     * leaving the reader index on it, or at a protocol error (reported, channel closed, {@link #failed}).
     */
    private void decode(ChannelHandlerContext ctx, ByteBuf in) {
        view.wrap(in, 0, 0); // once per buffer: each response only moves the view (ByteBufPayloadView.at)
        while (true) {
            int r = in.readerIndex();
            int total = codec.frame(view.at(r, in.writerIndex() - r), responseLength, maxFrame, head);
            if (total == ClientCodec.BAD) {
                fail(ctx, in, codec.problem(view, maxFrame), r);
                return;
            }
            if (total < 0) {
                return;
            }
            int payloadOffset = head.payloadOffset();
            handler.onResponse(head.id(), head.status(), view.at(r + payloadOffset, total - payloadOffset), total);
            in.readerIndex(r + total);
        }
    }

    private void fail(ChannelHandlerContext ctx, ByteBuf in, String reason, int at) {
        handler.onProtocolError(reason, head(in, at));
        in.skipBytes(in.readableBytes());
        failed = true;
        ctx.close();
    }

    /**
     * How many bytes the frame starting at {@code buf}'s reader index needs in all, as far as its
     * readable bytes tell: its header's length while the header is incomplete, the whole frame once the
     * header is there. A header that {@link #decode} will refuse counts as complete, so that decode
     * sees it and reports it.
     */
    private int frameNeeds(ByteBuf buf) {
        int r = buf.readerIndex();
        int total = codec.frame(view.wrap(buf, r, buf.writerIndex() - r), responseLength, maxFrame);
        return total == ClientCodec.BAD ? buf.readableBytes() : Math.abs(total);
    }

    /**
     * Completes the frame carried over from the last read with the first bytes of {@code in}, and
     * decodes it once whole. Returns false while it is still incomplete (all of {@code in} taken).
     */
    private boolean completeCarried(ChannelHandlerContext ctx, ByteBuf in) {
        ByteBuf c = carry;
        for (int needs = frameNeeds(c); c.readableBytes() < needs; needs = frameNeeds(c)) {
            if (!in.isReadable()) {
                return false;
            }
            // Room for the rest of the frame at once: a large frame grows the carry once, not per read.
            c.ensureWritable(needs - c.readableBytes());
            c.writeBytes(in, Math.min(needs - c.readableBytes(), in.readableBytes()));
        }
        decode(ctx, c);
        c.clear();
        if (c.capacity() > CARRY_KEPT) {
            // a rare large frame: do not hold its size for the rest of the connection's life
            c.release();
            carry = null;
        }
        return true;
    }

    /**
     * Keeps the incomplete frame at the end of a read for the next one, in a carry with room for the
     * whole frame once its header is known (so a large frame grows it once, not per read).
     */
    private void carryOver(ChannelHandlerContext ctx, ByteBuf in) {
        int room = Math.max(in.readableBytes(), frameNeeds(in));
        if (carry == null) {
            // Its own array, not the channel's allocator: an adaptive allocator's heap chunk (128 KiB)
            // is created and dropped as the carries of a run's connections come and go, which made
            // the allocation of the event loops differ between equal runs.
            carry = Unpooled.buffer(Math.max(room, Framed.RESPONSE_HEADER));
        } else if (carry.clear().capacity() < room) {
            carry.capacity(room);
        }
        carry.writeBytes(in, in.readableBytes());
    }

    /**
     * One socket read: its responses are decoded in place, bracketed so that they share one clock
     * reading in the engine.
     */
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf in = (ByteBuf) msg;
        if (nettyHttp) {
            passToDecoder(ctx, in);
            return;
        }
        if (failed) {
            in.release();
            return;
        }
        inRead = true;
        handler.onReadStart();
        try {
            if (carry != null && carry.isReadable() && !completeCarried(ctx, in)) {
                return;
            }
            if (!failed) {
                decode(ctx, in);
            }
            if (!failed && in.isReadable()) {
                carryOver(ctx, in);
            }
        } finally {
            in.release();
            handler.onReadEnd();
        }
    }

    /**
     * One socket read for Netty's HTTP decoder, which decodes it before {@code fireChannelRead} returns: its
     * responses are bracketed as one read, as decode's are. Retained meanwhile so that a protocol error can still
     * show its first bytes ({@link #readHead(long)}) once the decoder has merged them into its cumulation and let go.
     */
    private void passToDecoder(ChannelHandlerContext ctx, ByteBuf in) {
        inRead = true;
        received += in.readableBytes();
        passing = in.retain();
        passingFrom = in.readerIndex();
        handler.onReadStart();
        try {
            ctx.fireChannelRead(in);
        } finally {
            passing = null;
            in.release();
            handler.onReadEnd();
        }
    }

    /**
     * For a protocol error's message, what the peer sent from byte {@code offset} of the connection's input on (counted as {@link #received}):
     * the response that failed, not the good ones before it in the same read; from the read's start when that
     * byte is not in it (the response began in an earlier read).
     */
    byte[] readHead(long offset) {
        ByteBuf in = passing;
        if (in == null) {
            return new byte[0];
        }
        long readStart = received - (in.writerIndex() - passingFrom);
        long at = offset - readStart;
        return head(in, at >= 0 && at < in.writerIndex() - passingFrom ? passingFrom + (int) at : passingFrom);
    }

    /** The start of a bad frame, for the error message. */
    private static byte[] head(ByteBuf in, int at) {
        byte[] b = new byte[Math.min(PeerBytes.HEAD, in.writerIndex() - at)];
        in.getBytes(at, b);
        return b;
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        inRead = false;
        if (batch != null || prepared.activeFor(this)) {
            writeBatch();
        }
        if (flushPending) {
            flushPending = false;
            ctx.flush();
        }
        super.channelReadComplete(ctx);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (batch != null) {
            // Closed inside a read batch, before its end: the gathered requests will never be written.
            batch.release();
            batch = null;
        }
        if (ownBatches) {
            prepared.release();
        } else {
            prepared.abandon(this); // closed inside a read batch: the loop's buffer is free for others
        }
        if (carry != null) {
            carry.release();
            carry = null;
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        super.channelInactive(ctx);
        handler.onClosed();
    }

    /** Also {@link HttpResponseReader}'s, for what Netty's decoder throws. */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (http && cause instanceof IOException && ctx.channel() instanceof DuplexChannel d
                && d.isOutputShutdown() && d.isActive()) {
            // A write failed (the client has AUTO_CLOSE off, so Netty shut the output instead of closing): an HTTP
            // server closed the connection while requests were still going out. The responses it sent before are
            // still to be read, the last saying Connection: close; the close that follows decides what is an error.
            return;
        }
        if (cause instanceof IOException) {
            handler.onError(ErrorKind.READ, "connection error: " + cause.getMessage());
        } else {
            handler.onError(ErrorKind.READ, "connection error: " + cause);
        }
        ctx.close();
    }
}
