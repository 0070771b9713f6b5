package io.nbench.transport.mina;

import io.nbench.protocol.Framed;
import io.nbench.protocol.HttpOnFramed;
import io.nbench.protocol.StreamedRequest;
import io.nbench.transport.ServerEvents;
import io.nbench.transport.ServerRuntime;
import io.nbench.transport.support.RequestPipeline;
import java.nio.ByteBuffer;
import org.apache.mina.core.buffer.IoBuffer;
import org.apache.mina.core.filterchain.IoFilter;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.filter.codec.CumulativeProtocolDecoder;
import org.apache.mina.filter.codec.ProtocolDecoderOutput;

/**
 * Server side of the framed protocol, as a MINA user would write it: a {@link CumulativeProtocolDecoder}
 * (which keeps a partial frame in the session between reads) that checks each header as soon as its
 * bytes arrive, so an oversized frame is refused before its payload is read.
 *
 * <p>A complete request is answered right here, straight from the cumulation buffer, like nbench's Netty
 * decoder: passing a decoded request object on to the handler would cost an object and a payload copy
 * per request only to copy the payload again into the response. Responses go out in request order
 * because MINA's per-session write queue is FIFO. A request or response over 64 KiB is not held whole but
 * streamed ({@link StreamedRequest}, kept in the session), so what a session holds does not grow with
 * --max-frame. Otherwise stateless: one instance serves every session.
 *
 * <p>Each complete request goes to the session's {@link RequestPipeline}, which does its work and counts
 * it. With nbench's business pool ({@code --executor-threads}) the pipeline writes its response from the
 * pool thread once its work is done, in request order; requests are then held whole (no streaming).
 * Without the pool, {@code --work} runs right here on the processor thread, or with {@code -O
 * mina.executor} in {@link #work} on the ExecutorFilter's thread.
 */
final class FramedServerDecoder extends CumulativeProtocolDecoder {

    private final int maxFrame;
    private final ServerEvents events;
    /** --idle-timeout is on: record each request in the session's watch. */
    private final boolean idle;
    private final ServerRuntime runtime;
    /** Pooled or handed off: every response is built whole (no streaming). */
    private final boolean whole;
    /** mina.executor: each request's response goes on to the ExecutorFilter and {@link #work} instead of out. */
    private final boolean handOff;

    /** The codec filter's name in the chain. */
    static final String CODEC = "codec";

    FramedServerDecoder(int maxFrame, ServerEvents events, boolean idle) {
        this(maxFrame, events, idle, ServerRuntime.INLINE, false);
    }

    FramedServerDecoder(int maxFrame, ServerEvents events, boolean idle, ServerRuntime runtime, boolean handOff) {
        this.maxFrame = maxFrame;
        this.events = events;
        this.idle = idle;
        this.runtime = runtime;
        this.handOff = handOff;
        this.whole = handOff || runtime.answersLater();
        // Always cumulate. MINA skips cumulation on transports without fragmentation (VmPipe), which
        // would drop the bytes of a frame left undecoded (a pause, or a split write).
        setTransportMetadataFragmentation(false);
    }

    @Override
    protected boolean doDecode(IoSession session, IoBuffer in, ProtocolDecoderOutput out) {
        if (session.isClosing()) {
            in.position(in.limit());
            return false;
        }
        if (WriteBound.overHigh(session)) {
            // Leave the rest in the cumulation buffer; MinaServerHandler drains it when writes catch up.
            WriteBound.pause(session);
            return false;
        }
        State state = state(session);
        if (state.answeredHttp) {
            in.position(in.limit()); // closing after the answer to an HTTP request: the rest is dropped
            return false;
        }
        StreamedRequest stream = state.stream;
        if (stream != null && stream.active()) {
            return streamPayload(session, in, state);
        }
        int r = in.position();
        int readable = in.remaining();
        if (readable < 4) {
            return false;
        }
        long frameLength = in.getUnsignedInt(r);
        String bad = Framed.checkFrameLength(frameLength, maxFrame);
        if (bad == null && readable >= 8) {
            bad = Framed.checkResponseLength(in.getUnsignedInt(r + 4), maxFrame);
        }
        if (bad != null) {
            int http = HttpOnFramed.recognise(i -> in.getUnsigned(r + i), readable);
            if (http == HttpOnFramed.MORE) {
                return false;
            }
            in.position(in.limit());
            if (http == HttpOnFramed.YES) {
                events.protocolError(String.valueOf(session.getRemoteAddress()), HttpOnFramed.ERROR);
                state.answeredHttp = true;
                session.write(IoBuffer.wrap(HttpOnFramed.ANSWER));
                session.closeOnFlush();
                events.refusalAnswered(HttpOnFramed.ANSWER.length);
                return false;
            }
            events.protocolError(String.valueOf(session.getRemoteAddress()), bad);
            session.closeNow();
            return false;
        }
        if (readable < 8) {
            return false;
        }
        int responseLength = (int) in.getUnsignedInt(r + 4);
        if (!whole && StreamedRequest.streams(frameLength, responseLength)) {
            if (readable < Framed.REQUEST_HEADER) {
                return false;
            }
            state.stream = startStream(session, in, frameLength, responseLength, stream);
            streamPayload(session, in, state);
            return true; // the header, at least, was consumed
        }
        int total = (int) (4 + frameLength);
        if (readable < total) {
            return false;
        }
        long id = in.getLong(r + Framed.REQUEST_ID_OFFSET);
        int responseBytes = responseLength > 0 ? Framed.RESPONSE_HEADER + responseLength : 0;
        RequestPipeline<IoBuffer> requests = state.requests(session);
        if (requests.handsOff()) {
            // One message per request, one-way ones too (no response): each has its work to do.
            IoBuffer response = responseLength > 0 ? response(in, r, total, id, responseLength) : null;
            in.position(r + total);
            if (idle) {
                MinaServerHandler.progress(session);
            }
            out.write(requests.handedOff(total, responseBytes, response));
            return true;
        }
        IoBuffer response = responseLength > 0 ? response(in, r, total, id, responseLength) : null;
        in.position(r + total);
        if (idle) {
            MinaServerHandler.progress(session);
        }
        requests.decoded(id, total, responseBytes, response);
        return true;
    }

    private static IoBuffer response(IoBuffer in, int r, int total, long id, int responseLength) {
        int payload = total - Framed.REQUEST_HEADER;
        int copy = Math.min(payload, responseLength);
        IoBuffer response = IoBuffer.allocate(Framed.RESPONSE_HEADER + responseLength);
        response.putInt(Framed.responseFrameLength(Framed.STATUS_OK, responseLength));
        response.putLong(id);
        response.put((byte) Framed.STATUS_OK);
        // Copy the payload region without a slice object: narrow the input's window for the put.
        int limit = in.limit();
        in.limit(r + Framed.REQUEST_HEADER + copy);
        in.position(r + Framed.REQUEST_HEADER);
        response.put(in);
        in.limit(limit);
        // Pooled (cached allocator) buffers come back dirty, so padding is written, not assumed.
        if (responseLength > copy) {
            response.fill((byte) 0, responseLength - copy);
        }
        response.flip();
        return response;
    }

    @Override
    public void decode(IoSession session, IoBuffer in, ProtocolDecoderOutput out) throws Exception {
        super.decode(session, in, out);
        // MINA's processor writes the session's queued responses after this read returns, on this same thread:
        // they are answered (and their processing time ends) at the messageSent of the batch's last one.
        SentBatches.of(session).ended(state(session).requests(session));
    }

    /**
     * mina.executor: one request's work and response, on the ExecutorFilter's thread (the session's
     * events run one at a time there, in order). Processing time runs from this thread taking the request
     * to the hand-off to the session's write queue; the wait in the executor's queue is not seen.
     */
    void work(IoSession session, RequestPipeline.HandOff<IoBuffer> request) {
        RequestPipeline<IoBuffer> requests = state(session).requests(session);
        IoBuffer response = requests.handedOffWork(request);
        if (response != null) {
            session.write(response);
        }
        requests.handedOffFlushed();
    }

    /** What the decoder keeps per session, in one attribute so each request costs one lookup. */
    private final class State {
        /** Made at the session's first large request. */
        StreamedRequest stream;
        /** The peer sent an HTTP request, answered 400: the session closes once that is written. */
        boolean answeredHttp;
        /** Made at the session's first decode. */
        private RequestPipeline<IoBuffer> requests;

        RequestPipeline<IoBuffer> requests(IoSession session) {
            if (requests == null) {
                Responses writer = new Responses(session);
                requests = handOff ? RequestPipeline.handingOff(runtime, events, writer)
                        : RequestPipeline.of(runtime, events, writer);
            }
            return requests;
        }
    }

    private State state(IoSession session) {
        State state = (State) session.getAttribute(STATE);
        if (state == null) {
            state = new State();
            session.setAttribute(STATE, state);
        }
        return state;
    }

    /** The session is closed: offloaded responses still to come are dropped. */
    void closed(IoSession session) {
        State state = (State) session.getAttribute(STATE);
        if (state != null && state.requests != null) {
            state.requests.close();
        }
    }

    /**
     * Writes the session's responses, from the processor or from the pool thread alike: MINA's per-session
     * write queue keeps their order.
     */
    private static final class Responses implements RequestPipeline.Writer<IoBuffer> {
        private final IoSession session;

        Responses(IoSession session) {
            this.session = session;
        }

        @Override
        public void send(IoBuffer response) {
            session.write(response);
        }

        @Override
        public int reject(long id, IoBuffer response) {
            if (response != null) {
                response.free();
            }
            session.write(IoBuffer.wrap(Framed.rejectedResponse(id)));
            return Framed.RESPONSE_HEADER;
        }

        @Override
        public void end() {
            session.closeOnFlush();
        }

        @Override
        public void discard(IoBuffer response) {
            response.free();
        }
    }

    /** The session attribute holding its {@link State}. */
    private static final String STATE = "nbench.decoder";

    /**
     * Zeros for the padding of streamed responses, shared by every session and thread: each write gets a
     * read-only view of its own (MINA moves a written buffer's position, and never frees a read-only one).
     */
    private static final ByteBuffer ZEROS =
            ByteBuffer.allocateDirect(StreamedRequest.WHOLE).asReadOnlyBuffer();

    private static StreamedRequest startStream(IoSession session, IoBuffer in, long frameLength, int responseLength,
                                               StreamedRequest stream) {
        if (stream == null) {
            stream = new StreamedRequest();
        }
        int r = in.position();
        long id = in.getLong(r + Framed.REQUEST_ID_OFFSET);
        in.position(r + Framed.REQUEST_HEADER);
        stream.start(frameLength, responseLength);
        if (responseLength > 0) {
            IoBuffer header = IoBuffer.allocate(Framed.RESPONSE_HEADER);
            header.putInt(Framed.responseFrameLength(Framed.STATUS_OK, responseLength));
            header.putLong(id);
            header.put((byte) Framed.STATUS_OK);
            header.flip();
            session.write(header);
        }
        return stream;
    }

    /**
     * Consumes what has arrived of a streamed request's payload, writing the part that belongs in the
     * response; when the payload is complete, writes the padding and counts the request. Returns whether
     * it consumed a byte (MINA decodes again while there is input and the decoder consumed some).
     */
    private boolean streamPayload(IoSession session, IoBuffer in, State state) {
        StreamedRequest stream = state.stream;
        int n = Math.min(in.remaining(), stream.payloadLeft());
        int copy = stream.consume(n);
        if (copy > 0) {
            IoBuffer chunk = IoBuffer.allocate(copy);
            int limit = in.limit();
            in.limit(in.position() + copy);
            chunk.put(in);
            in.limit(limit);
            chunk.flip();
            session.write(chunk);
        }
        in.position(in.position() + (n - copy));
        if (stream.payloadLeft() > 0) {
            return n > 0;
        }
        for (int left = stream.padding(); left > 0; left -= StreamedRequest.WHOLE) {
            ByteBuffer zeros = ZEROS.duplicate();
            zeros.limit(Math.min(left, StreamedRequest.WHOLE));
            session.write(IoBuffer.wrap(zeros));
        }
        stream.finish();
        if (idle) {
            MinaServerHandler.progress(session);
        }
        state.requests(session).decoded(0, stream.requestBytes(), stream.responseBytes(), null); // written already
        return n > 0;
    }

    /**
     * Answers the complete requests left in the session's cumulation buffer by an earlier pause. MINA
     * only decodes when bytes arrive, and the client may be waiting for exactly these responses.
     */
    void drain(IoSession session) throws Exception {
        decode(session, IoBuffer.allocate(0), handOff ? new ToNextFilter(session) : NO_OUTPUT);
    }

    /** Passes what a drain decodes straight on to the filter after the codec (mina.executor's ExecutorFilter). */
    private static final class ToNextFilter implements ProtocolDecoderOutput {
        private final IoSession session;
        private final IoFilter.NextFilter next;

        ToNextFilter(IoSession session) {
            this.session = session;
            this.next = session.getFilterChain().getNextFilter(CODEC);
        }

        @Override
        public void write(Object message) {
            next.messageReceived(session, message);
        }

        @Override
        public void flush(IoFilter.NextFilter nextFilter, IoSession session) {
        }
    }

    /** This decoder never emits decoded objects. */
    private static final ProtocolDecoderOutput NO_OUTPUT = new ProtocolDecoderOutput() {
        @Override
        public void write(Object message) {
            throw new IllegalStateException("FramedServerDecoder emits nothing");
        }

        @Override
        public void flush(IoFilter.NextFilter nextFilter, IoSession session) {
        }
    };
}
