package io.nbench.transport.support;

import io.nbench.transport.ConnectionHandler;
import io.nbench.transport.PayloadView;
import io.nbench.transport.ErrorKind;
import static io.nbench.testkit.FuzzStreams.MAX_FRAME;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.nbench.protocol.Framed;
import io.nbench.protocol.RequestTemplate;
import io.nbench.testkit.FuzzStreams;
import java.nio.ByteBuffer;

/**
 * Fuzzes the client side of the nio, blocking and virtual-thread transports the way the nio client
 * drives it: read into a buffer, decode, compact or grow. It must never throw, report a protocol error
 * with a one-line reason or else leave at most one incomplete response, and never grow its buffer past
 * what the largest legal response needs.
 */
class ResponseDecoderFuzzTest {

    /** The largest buffer a legal response can need: its size rounded up to a power of two. */
    private static final int MAX_BUFFER = Integer.highestOneBit(Framed.RESPONSE_HEADER + MAX_FRAME - 1) << 1;

    @FuzzTest(maxDuration = "10s")
    void responseStream(byte[] input) {
        byte[] stream = FuzzStreams.stream(input);
        RequestTemplate template = RequestTemplate.framed(100, 100, 1);
        long[] consumed = new long[1];
        ResponseDecoder decoder = new ResponseDecoder(template, MAX_FRAME, new ConnectionHandler() {
            @Override
            public void onResponse(long id, int status, PayloadView payload) {
                assertTrue(status == Framed.STATUS_OK || status == Framed.STATUS_REJECTED, "status " + status);
                assertTrue(payload.length() <= MAX_FRAME, "payload of " + payload.length() + " bytes");
                consumed[0] += Framed.RESPONSE_HEADER + payload.length();
            }

            @Override
            public void onWritten(long id) {
            }

            @Override
            public void onError(ErrorKind kind, String message) {
            }

            @Override
            public void onClosed() {
            }
        });
        ByteBuffer buf = ByteBuffer.allocate(ResponseDecoder.initialCapacity(template));
        for (byte[] piece : FuzzStreams.pieces(input)) {
            int at = 0;
            while (at < piece.length) {
                int n = Math.min(buf.remaining(), piece.length - at);
                assertTrue(n > 0, "no room to read into after compacting: the decoder cannot progress");
                buf.put(piece, at, n);
                at += n;
                buf.flip();
                if (!decoder.decode(buf)) {
                    FuzzStreams.assertOneLine(decoder.error());
                    return;
                }
                assertTrue(decoder.needed() <= Framed.RESPONSE_HEADER + MAX_FRAME, "needs " + decoder.needed() + " bytes");
                buf = decoder.compactOrGrow(buf, false);
                assertTrue(buf.capacity() <= MAX_BUFFER, "buffer grew to " + buf.capacity() + " bytes");
            }
        }
        FuzzStreams.assertIncompleteResponse(stream, consumed[0], MAX_FRAME);
    }
}
