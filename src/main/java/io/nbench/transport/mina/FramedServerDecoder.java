package io.nbench.transport.mina;

import io.nbench.protocol.Framed;
import io.nbench.transport.ServerEvents;
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
 * because MINA's per-session write queue is FIFO. Stateless: one instance serves every session.
 */
final class FramedServerDecoder extends CumulativeProtocolDecoder {

    private final int maxFrame;
    private final ServerEvents events;
    /** --idle-timeout is on: record each request in the session's watch. */
    private final boolean idle;

    FramedServerDecoder(int maxFrame, ServerEvents events, boolean idle) {
        this.maxFrame = maxFrame;
        this.events = events;
        this.idle = idle;
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
            events.protocolError(String.valueOf(session.getRemoteAddress()), bad);
            in.position(in.limit());
            session.closeNow();
            return false;
        }
        int total = (int) (4 + frameLength);
        if (readable < total) {
            return false;
        }
        int responseLength = (int) in.getUnsignedInt(r + 4);
        if (responseLength > 0) {
            int payload = total - Framed.REQUEST_HEADER;
            int copy = Math.min(payload, responseLength);
            IoBuffer response = IoBuffer.allocate(Framed.RESPONSE_HEADER + responseLength);
            response.putInt(Framed.responseFrameLength(Framed.STATUS_OK, responseLength));
            response.putLong(in.getLong(r + Framed.REQUEST_ID_OFFSET));
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
            session.write(response);
        }
        in.position(r + total);
        if (idle) {
            MinaServerHandler.progress(session);
        }
        events.requestServed(total, responseLength > 0 ? Framed.RESPONSE_HEADER + responseLength : 0);
        return true;
    }

    /**
     * Answers the complete requests left in the session's cumulation buffer by an earlier pause. MINA
     * only decodes when bytes arrive, and the client may be waiting for exactly these responses.
     */
    void drain(IoSession session) throws Exception {
        decode(session, IoBuffer.allocate(0), NO_OUTPUT);
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
