package io.nbench.transport.mina;

import io.nbench.protocol.Framed;
import io.nbench.protocol.PeerBytes;
import io.nbench.transport.support.ByteBufferPayloadView;
import io.nbench.transport.ConnectionHandler;
import org.apache.mina.core.buffer.IoBuffer;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.filter.codec.CumulativeProtocolDecoder;
import org.apache.mina.filter.codec.ProtocolDecoderOutput;

/**
 * Client side of both protocols, one instance per connection: framed response frames (u32 length, u64
 * id, u8 status, payload) or fixed-size echo messages.
 *
 * <p>Each complete response goes straight to the engine with a reusable view over the cumulation
 * buffer instead of through {@link ProtocolDecoderOutput}: MINA delivers decoded objects only after the
 * whole read is decoded, so every response would need an object and a payload copy of its own.
 */
final class ClientDecoder extends CumulativeProtocolDecoder {

    private final ConnectionHandler handler;
    private final boolean echo;
    private final int echoSize;
    private final int maxFrame;
    private final ByteBufferPayloadView view = new ByteBufferPayloadView();

    ClientDecoder(ConnectionHandler handler, boolean echo, int echoSize, int maxFrame) {
        this.handler = handler;
        this.echo = echo;
        this.echoSize = echoSize;
        this.maxFrame = maxFrame;
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
        int r = in.position();
        int readable = in.remaining();
        if (echo) {
            if (readable < echoSize) {
                return false;
            }
            in.position(r + echoSize);
            handler.onResponse(ConnectionHandler.UNKNOWN_ID, Framed.STATUS_OK, view.wrap(in.buf(), r, echoSize));
            return true;
        }
        if (readable < 4) {
            return false;
        }
        long frameLength = in.getUnsignedInt(r);
        String bad = Framed.checkResponse(frameLength, maxFrame);
        if (bad != null) {
            return fail(session, in, r, "bad response frame: " + bad);
        }
        int total = (int) (4 + frameLength);
        if (readable < total) {
            return false;
        }
        long id = in.getLong(r + 4);
        int status = in.getUnsigned(r + 12);
        if (status != Framed.STATUS_OK && status != Framed.STATUS_REJECTED) {
            return fail(session, in, r, "response status " + status + " is neither 0 (ok) nor 1 (rejected)");
        }
        // Move past the frame first: the engine may send from inside onResponse, and a decode error
        // there must not replay this frame.
        in.position(r + total);
        handler.onResponse(id, status, view.wrap(in.buf(), r + Framed.RESPONSE_HEADER, total - Framed.RESPONSE_HEADER));
        return true;
    }

    private boolean fail(IoSession session, IoBuffer in, int at, String message) {
        byte[] head = PeerBytes.head(in.buf(), at);
        in.position(in.limit());
        handler.onProtocolError(message, head);
        session.closeNow();
        return false;
    }
}
