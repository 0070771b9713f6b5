package io.nbench.transport.mina;

import io.nbench.protocol.Protocol;
import io.nbench.protocol.ServerCodec;
import io.nbench.transport.ServerEvents;
import io.nbench.transport.ServerRuntime;
import io.nbench.transport.support.RequestPipeline;
import io.nbench.transport.support.CodecRequests;
import java.nio.ByteBuffer;
import org.apache.mina.core.buffer.IoBuffer;
import org.apache.mina.core.session.IoSession;

/**
 * Any protocol's server side on MINA: {@link MinaServerHandler} hands each read here, which runs the
 * protocol's {@link ServerCodec} over the read's NIO buffer (what a request leaves incomplete is kept in the
 * session's own input buffer) and writes each read's responses with one write. Each request goes to the
 * session's {@link RequestPipeline}; with nbench's business pool its whole response is taken out of the output
 * ({@link CodecRequests}) and written from the pool thread. Backpressure as for echo: a session whose
 * unwritten responses pass {@link WriteBound#HIGH} stops reading until they drain.
 */
final class CodecSessions {

    private static final String STATE = "nbench.codec";
    private static final int BUFFER = 16 * 1024;

    private final Protocol protocol;
    private final ServerCodec.Settings settings;
    private final ServerEvents events;
    private final ServerRuntime runtime;

    CodecSessions(Protocol protocol, ServerCodec.Settings settings, ServerEvents events, ServerRuntime runtime) {
        this.protocol = protocol;
        this.settings = settings;
        this.events = events;
        this.runtime = CodecRequests.runtime(protocol, runtime);
    }

    /** On the session's processor: answers what {@code read} completes. */
    void received(IoSession session, IoBuffer read) {
        State state = (State) session.getAttribute(STATE);
        if (state == null) {
            state = new State(session);
            session.setAttribute(STATE, state);
        }
        if (!state.received(read.buf())) {
            events.protocolError(String.valueOf(session.getRemoteAddress()), state.codec.error());
            session.closeOnFlush(); // after the protocol's answer to it (HTTP's 400)
            return;
        }
        if (WriteBound.overHigh(session)) {
            WriteBound.pause(session);
        }
    }

    void closed(IoSession session) {
        State state = (State) session.getAttribute(STATE);
        if (state != null) {
            state.requests.close();
        }
    }

    /** One session's codec, buffers and pipeline, used by its processor thread only. */
    private final class State {
        private final IoSession session;
        private final ServerCodec codec;
        private final RequestPipeline<ByteBuffer> requests;
        private final CodecRequests served;
        /** Answers the requests once MINA wrote their responses. */
        private final SentBatches sent;
        private final boolean pooled;
        /** Fill mode between reads: the start of a request not complete yet. */
        private ByteBuffer in = ByteBuffer.allocate(BUFFER);
        private final ByteBuffer out;
        private boolean ended;

        State(IoSession session) {
            this.session = session;
            this.sent = SentBatches.of(session);
            this.requests = RequestPipeline.of(runtime, events,
                    RequestPipeline.heapResponses(protocol, r -> session.write(IoBuffer.wrap(r)), session::closeOnFlush));
            this.served = new CodecRequests(requests, events, () -> MinaServerHandler.progress(session));
            this.pooled = served.pooled();
            this.codec = protocol.newServerCodec(settings, served);
            this.out = ByteBuffer.allocate(Math.max(BUFFER, codec.minOutput()));
            served.output(out);
        }

        /**
         * False on a protocol error (what came before it is answered). Once the protocol ended the connection
         * ({@link ServerCodec#CLOSE}) what else arrives before it closes is dropped.
         */
        boolean received(ByteBuffer read) {
            if (ended) {
                read.position(read.limit());
                return true;
            }
            while (read.hasRemaining()) {
                if (!in.hasRemaining()) {
                    // A request larger than the buffer that the codec needs whole: room for more of it.
                    in = ByteBuffer.allocate(in.capacity() * 2).put(in.flip());
                }
                int n = Math.min(read.remaining(), in.remaining());
                in.put(in.position(), read, read.position(), n);
                in.position(in.position() + n);
                read.position(read.position() + n);
                in.flip();
                int result;
                while ((result = codec.parse(in, out)) == ServerCodec.OUTPUT_FULL) {
                    write();
                }
                in.compact();
                if (result == ServerCodec.PROTOCOL_ERROR) {
                    writeAnswer();
                    sent.ended(requests);
                    return false;
                }
                if (result == ServerCodec.CLOSE) {
                    write();
                    sent.ended(requests);
                    ended = true;
                    read.position(read.limit());
                    requests.end(); // MINA closes the session once its responses are written
                    return true;
                }
            }
            write();
            sent.ended(requests);
            return true;
        }

        /** On a protocol error: the protocol's answer to it is written pooled too ({@code out} holds only that). */
        private void writeAnswer() {
            if (pooled && out.position() > 0) {
                byte[] bytes = new byte[out.position()];
                out.flip().get(bytes);
                out.clear();
                session.write(IoBuffer.wrap(bytes));
                return;
            }
            write();
        }

        /**
         * Writes what the parses put in {@code out}. Pooled, the responses were taken out as their requests
         * completed; what is left is the start of one still arriving, kept for it.
         */
        private void write() {
            if (pooled) {
                served.spill();
                return;
            }
            if (out.position() > 0) {
                byte[] bytes = new byte[out.position()];
                out.flip().get(bytes);
                session.write(IoBuffer.wrap(bytes));
            }
            out.clear();
        }
    }
}
