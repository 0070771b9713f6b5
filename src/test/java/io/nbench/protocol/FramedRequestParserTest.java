package io.nbench.protocol;

import static io.nbench.transport.Vectors.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The shared server-side parser against the protocol vectors, split and starved in every way. */
class FramedRequestParserTest {

    private final List<int[]> served = new ArrayList<>();

    /** Feeds {@code request} in chunks of the given sizes through an output buffer of {@code outCapacity}. */
    private byte[] run(byte[] request, int[] chunks, int outCapacity, int inCapacity) {
        FramedRequestParser parser = new FramedRequestParser(MAX_FRAME, (req, resp) -> served.add(new int[] {req, resp}));
        ByteBuffer in = ByteBuffer.allocate(inCapacity);
        ByteBuffer out = ByteBuffer.allocate(outCapacity);
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        int offset = 0;
        int chunk = 0;
        while (offset < request.length) {
            int n = Math.min(Math.min(chunks[chunk % chunks.length], request.length - offset), in.remaining());
            chunk++;
            in.put(request, offset, n);
            offset += n;
            in.flip();
            while (true) {
                int r = parser.parse(in, out);
                assertTrue(r != FramedRequestParser.PROTOCOL_ERROR, () -> parser.error());
                if (r == FramedRequestParser.NEED_INPUT) {
                    break;
                }
                wire.write(out.array(), 0, out.position());
                out.clear();
            }
            in.compact();
        }
        wire.write(out.array(), 0, out.position());
        return wire.toByteArray();
    }

    @Test
    void answersEachVectorWhole() {
        assertArrayEquals(RESP1, run(REQ1, new int[] {1000}, 64, 64));
        assertArrayEquals(new byte[0], run(REQ2, new int[] {1000}, 64, 64));
        assertArrayEquals(RESP3, run(REQ3, new int[] {1000}, 64, 64));
        assertArrayEquals(RESP4, run(REQ4, new int[] {1000}, 64, 64));
        assertArrayEquals(RESP5, run(REQ5, new int[] {1000}, 64, 64));
        assertArrayEquals(RESP6, run(REQ6, new int[] {1000}, 64, 64));
        assertEquals(8, served.size());
        assertArrayEquals(new int[] {19, 16}, served.get(0));
        assertArrayEquals(new int[] {18, 0}, served.get(1));
    }

    @Test
    void answersEverySplitAndEveryOutputSize() {
        byte[][] requests = {REQ1, REQ2, REQ3, REQ4, REQ5, REQ6};
        byte[][] responses = {RESP1, new byte[0], RESP3, RESP4, RESP5, RESP6};
        for (int v = 0; v < requests.length; v++) {
            byte[] req = requests[v];
            for (int k = 1; k < req.length; k++) {
                assertArrayEquals(responses[v], run(req, new int[] {k, req.length}, 64, 64), "vector split at " + k);
            }
            for (int chunk = 1; chunk <= 5; chunk++) {
                for (int outCap = FramedRequestParser.MIN_OUTPUT; outCap <= 20; outCap++) {
                    assertArrayEquals(responses[v], run(req, new int[] {chunk}, outCap, 16),
                            "chunks of " + chunk + ", output of " + outCap);
                }
            }
        }
    }

    @Test
    void streamsTheLargestFrameThroughSmallBuffers() {
        assertArrayEquals(RESP8, run(request8(), new int[] {4096, 1, 65536}, 64, 8192));
        byte[] big = new byte[Framed.REQUEST_HEADER + MAX_FRAME];
        ByteBuffer.wrap(big).putInt(Framed.requestFrameLength(MAX_FRAME)).putInt(MAX_FRAME).putLong(42);
        for (int i = Framed.REQUEST_HEADER; i < big.length; i++) {
            big[i] = (byte) (i * 31);
        }
        byte[] response = run(big, new int[] {65536, 7}, 65536, 65536);
        assertEquals(Framed.RESPONSE_HEADER + MAX_FRAME, response.length);
        assertArrayEquals(Arrays.copyOfRange(big, Framed.REQUEST_HEADER, big.length),
                Arrays.copyOfRange(response, Framed.RESPONSE_HEADER, response.length));
    }

    @Test
    void rejectsBadHeadersAsSoonAsTheirBytesArrive() {
        assertError(Arrays.copyOf(REQ9, 4), "frameLength 11 < 12");
        assertError(Arrays.copyOf(REQ10, 4), "payload 16777217 bytes > --max-frame 16777216");
        assertError(Arrays.copyOf(REQ11, 8), "responseLength 16777217 > --max-frame");
        assertError(Arrays.copyOf(REQ12, 8), "responseLength 2147483648 > --max-frame");
    }

    private static void assertError(byte[] bytes, String expected) {
        FramedRequestParser parser = new FramedRequestParser(MAX_FRAME, (a, b) -> { });
        assertEquals(FramedRequestParser.PROTOCOL_ERROR, parser.parse(ByteBuffer.wrap(bytes), ByteBuffer.allocate(64)));
        assertTrue(parser.error().contains(expected), parser.error());
    }
}
