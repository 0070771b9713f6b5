package io.nbench.transport.mina;

import static io.nbench.testkit.FuzzStreams.MAX_FRAME;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.nbench.protocol.Framed;
import io.nbench.protocol.HttpOnFramed;
import io.nbench.protocol.RequestTemplate;
import io.nbench.testkit.CountingServerEvents;
import io.nbench.testkit.FuzzStreams;
import io.nbench.transport.ConnectionHandler;
import io.nbench.transport.ErrorKind;
import io.nbench.transport.PayloadView;
import java.util.ArrayList;
import java.util.List;
import org.apache.mina.core.buffer.IoBuffer;
import org.apache.mina.core.filterchain.IoFilterAdapter;
import org.apache.mina.core.session.DummySession;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.core.write.WriteRequest;
import org.apache.mina.filter.codec.AbstractProtocolDecoderOutput;

/**
 * Fuzzes both MINA decoders on a {@link DummySession}: the server's {@link FramedServerDecoder} and the
 * client's {@link ClientDecoder}, with any byte stream split anywhere. Neither may throw; a protocol
 * error closes the session with a one-line reason; otherwise all but one incomplete frame is consumed;
 * no response is larger than the declared max frame allows.
 */
class MinaDecoderFuzzTest {

    @FuzzTest(maxDuration = "10s")
    void serverDecoder(byte[] input) throws Exception {
        byte[] stream = FuzzStreams.stream(input);
        CountingServerEvents events = new CountingServerEvents();
        DummySession session = new DummySession();
        long[] responses = new long[1];
        List<WriteRequest> written = new ArrayList<>();
        session.getFilterChain().addLast("responses", new IoFilterAdapter() {
            @Override
            public void filterWrite(NextFilter next, IoSession s, WriteRequest request) {
                IoBuffer r = (IoBuffer) request.getMessage();
                responses[0] += r.remaining();
                assertTrue(r.remaining() <= Framed.RESPONSE_HEADER + MAX_FRAME, "response of " + r.remaining() + " bytes");
                written.add(request); // sent once the read is over, as MINA's processor writes after it
            }
        });
        // As MinaServer's chain: a batch's requests are answered at the messageSent of its last response.
        session.getFilterChain().addLast(SentBatches.NAME, new SentBatches.Filter());
        SentBatches.attach(session);
        FramedServerDecoder decoder = new FramedServerDecoder(MAX_FRAME, events, false);
        for (byte[] piece : FuzzStreams.pieces(input)) {
            if (session.isClosing()) {
                break;
            }
            decoder.decode(session, IoBuffer.wrap(piece), NO_OUTPUT);
            for (WriteRequest w : written) {
                session.getFilterChain().fireMessageSent(w);
            }
            written.clear();
        }
        // Every byte written is a served request's response, or the one 400 an HTTP request gets (then the close).
        long answer = HttpOnFramed.ERROR.equals(events.error) ? HttpOnFramed.ANSWER.length : 0;
        if (events.error == null) {
            assertEquals(events.responseBytes + answer, responses[0], "response bytes written vs served");
        } else {
            // A bad frame closes the session at once, discarding what its read queued: those requests are dropped,
            // never answered (a response counts answered only once sent), though their bytes reached the chain.
            assertTrue(events.responseBytes + answer <= responses[0], "response bytes served beyond those written");
        }
        if (events.error != null) {
            FuzzStreams.assertOneLine(events.error);
            assertTrue(session.isClosing(), "protocol error without closing");
            return;
        }
        FuzzStreams.assertIncompleteRequest(stream, events.requestBytes, MAX_FRAME);
    }

    @FuzzTest(maxDuration = "10s")
    void clientDecoder(byte[] input) throws Exception {
        byte[] stream = FuzzStreams.stream(input);
        Handler handler = new Handler();
        ClientDecoder decoder = new ClientDecoder(handler, RequestTemplate.framed(100, 100, 1), MAX_FRAME);
        DummySession session = new DummySession();
        for (byte[] piece : FuzzStreams.pieces(input)) {
            if (session.isClosing()) {
                break;
            }
            decoder.decode(session, IoBuffer.wrap(piece), NO_OUTPUT);
        }
        assertNull(handler.otherError, "a connection error from decoding");
        if (handler.protocolError != null) {
            FuzzStreams.assertOneLine(handler.protocolError);
            assertTrue(session.isClosing(), "protocol error without closing");
            return;
        }
        FuzzStreams.assertIncompleteResponse(stream, handler.consumed, MAX_FRAME);
    }

    /** Both decoders hand their results on directly; writing to the output is a bug. */
    private static final AbstractProtocolDecoderOutput NO_OUTPUT = new AbstractProtocolDecoderOutput() {
        @Override
        public void write(Object message) {
            throw new AssertionError("decoder emitted " + message);
        }
    };

    static final class Handler implements ConnectionHandler {
        long consumed;
        String protocolError;
        String otherError;

        @Override
        public void onResponse(long id, int status, PayloadView payload) {
            assertTrue(status == Framed.STATUS_OK || status == Framed.STATUS_REJECTED, "status " + status);
            assertTrue(payload.length() <= MAX_FRAME, "payload of " + payload.length() + " bytes");
            consumed += Framed.RESPONSE_HEADER + payload.length();
        }

        @Override
        public void onWritten(long id) {
        }

        @Override
        public void onError(ErrorKind kind, String message) {
            if (kind == ErrorKind.PROTOCOL) {
                protocolError = message;
            } else {
                otherError = kind + ": " + message;
            }
        }

        @Override
        public void onClosed() {
        }
    }
}
