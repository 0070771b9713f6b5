package io.nbench.transport.mina;

import io.nbench.protocol.ClientCodec;
import io.nbench.protocol.PeerBytes;
import io.nbench.protocol.RequestTemplate;
import io.nbench.protocol.ResponseHead;
import io.nbench.protocol.WireBytes;
import io.nbench.transport.support.ByteBufferPayloadView;
import io.nbench.transport.ConnectionHandler;
import org.apache.mina.core.buffer.IoBuffer;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.filter.codec.CumulativeProtocolDecoder;
import org.apache.mina.filter.codec.ProtocolDecoderOutput;

/**
 * Client side of every protocol, one instance per connection: the protocol's {@link ClientCodec}
 * recognises each response in the cumulation buffer.
 *
 * <p>Each complete response goes straight to the engine with a reusable view over the cumulation
 * buffer instead of through {@link ProtocolDecoderOutput}: MINA delivers decoded objects only after the
 * whole read is decoded, so every response would need an object and a payload copy of its own.
 */
final class ClientDecoder extends CumulativeProtocolDecoder {

    private final ConnectionHandler handler;
    private final ClientCodec codec;
    private final int responseLength;
    private final int maxFrame;
    private final ByteBufferPayloadView view = new ByteBufferPayloadView();
    /** What frame found besides the length, read at once: one per connection, no object per response. */
    private final ResponseHead head = new ResponseHead();

    ClientDecoder(ConnectionHandler handler, RequestTemplate template, int maxFrame) {
        this.handler = handler;
        this.codec = template.codec();
        this.responseLength = template.responseLength();
        this.maxFrame = maxFrame;
        // Always cumulate. MINA skips cumulation on transports without fragmentation (VmPipe), which
        // would drop the bytes of a frame left undecoded (a pause, or a split write).
        setTransportMetadataFragmentation(false);
    }

    /**
     * One received buffer is one read: its responses share one clock reading, and none of them completes a
     * request sent while it is decoded (the engine may send from inside onResponse; the bytes came before).
     */
    @Override
    public void decode(IoSession session, IoBuffer in, ProtocolDecoderOutput out) throws Exception {
        handler.onReadStart();
        try {
            super.decode(session, in, out);
        } finally {
            handler.onReadEnd();
        }
    }

    @Override
    protected boolean doDecode(IoSession session, IoBuffer in, ProtocolDecoderOutput out) {
        if (session.isClosing()) {
            in.position(in.limit());
            return false;
        }
        int r = in.position();
        WireBytes available = view.wrap(in.buf(), r, in.remaining());
        int total = codec.frame(available, responseLength, maxFrame, head);
        if (total == ClientCodec.BAD) {
            return fail(session, in, r, codec.problem(available, maxFrame));
        }
        if (total < 0) {
            return false;
        }
        // Move past the frame first: the engine may send from inside onResponse, and a decode error
        // there must not replay this frame.
        in.position(r + total);
        int payloadOffset = head.payloadOffset();
        handler.onResponse(head.id(), head.status(), view.at(r + payloadOffset, total - payloadOffset), total);
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
