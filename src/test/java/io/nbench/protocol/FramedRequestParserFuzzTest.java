package io.nbench.protocol;

import static io.nbench.testkit.FuzzStreams.MAX_FRAME;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.nbench.testkit.FuzzStreams;
import java.nio.ByteBuffer;

/**
 * Fuzzes the server side of the nio, blocking and virtual-thread transports: any byte stream, split
 * anywhere, into output buffers of any legal size. The parser must never throw, must consume every byte
 * it is given but a header not yet whole unless it reports a protocol error (with a one-line reason),
 * must never leave a complete request unanswered, and the responses it writes must add up to what it
 * reports served.
 */
class FramedRequestParserFuzzTest {

    @FuzzTest(maxDuration = "10s")
    void requestStream(byte[] input) {
        byte[] stream = FuzzStreams.stream(input);
        long[] served = new long[2];
        FramedRequestParser parser = new FramedRequestParser(MAX_FRAME, (requestBytes, responseBytes) -> {
            served[0] += requestBytes;
            served[1] += responseBytes;
        });
        // The output buffer: from the smallest legal size up, chosen by the same byte as the pieces.
        ByteBuffer out = ByteBuffer.allocate(FramedRequestParser.MIN_OUTPUT + (input.length == 0 ? 0 : input[0] & 0x3F));
        long produced = 0;
        // As the nio server does: bytes the parser leaves (a header not yet whole) stay in front of the next read.
        ByteBuffer in = ByteBuffer.allocate(0);
        for (byte[] piece : FuzzStreams.pieces(input)) {
            in = ByteBuffer.allocate(in.remaining() + piece.length).put(in).put(piece).flip();
            while (true) {
                int result = parser.parse(in, out);
                if (result == FramedRequestParser.PROTOCOL_ERROR) {
                    FuzzStreams.assertOneLine(parser.error());
                    return;
                }
                if (result == FramedRequestParser.NEED_INPUT) {
                    assertTrue(in.remaining() < Framed.REQUEST_HEADER, "NEED_INPUT with " + in.remaining() + " bytes unconsumed");
                    produced += out.position();
                    out.clear();
                    break;
                }
                assertEquals(FramedRequestParser.OUTPUT_FULL, result, "unknown result");
                assertTrue(out.position() > 0, "OUTPUT_FULL from an empty output buffer: no progress possible");
                produced += out.position();
                out.clear();
            }
        }
        FuzzStreams.assertIncompleteRequest(stream, served[0], MAX_FRAME);
        long pending = produced - served[1];
        assertTrue(pending >= 0 && pending <= Framed.RESPONSE_HEADER + MAX_FRAME,
                "wrote " + produced + " response bytes for " + served[1] + " served");
    }
}
