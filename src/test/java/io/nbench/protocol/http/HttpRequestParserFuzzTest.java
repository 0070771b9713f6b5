package io.nbench.protocol.http;

import static io.nbench.testkit.FuzzStreams.MAX_FRAME;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.nbench.protocol.ServerCodec;
import io.nbench.testkit.FuzzStreams;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Fuzzes the HTTP request parser every transport but netty's HTTP codec runs: any byte stream, split anywhere,
 * into output buffers of any legal size. It must never throw, must consume every byte it is given, must make
 * progress whenever it asks for its output to be written, must answer exactly as it does when the same
 * stream arrives whole into a large buffer (how a stream is cut changes nothing), must write exactly the
 * response bytes it reports served, plus one error response that ends the connection (reported as a refusal's
 * bytes), and after an error or the connection's last response must answer nothing more.
 */
class HttpRequestParserFuzzTest {

    private static final int RESPONSE_SIZE = 10;

    @FuzzTest(maxDuration = "10s")
    void requestStream(byte[] input) {
        byte[] stream = FuzzStreams.stream(input);
        Run cut = run(FuzzStreams.pieces(input), 0);
        Run whole = run(List.of(stream), 1 << 16);
        assertArrayEquals(whole.output, cut.output, "the answer depends on how the stream was cut");
        assertEquals(whole.served, cut.served);
        assertEquals(whole.result, cut.result);
        assertTrue(cut.requestBytes <= stream.length, cut.requestBytes + " request bytes counted of " + stream.length);
        long errorBytes = cut.output.length - cut.responseBytes;
        assertEquals(errorBytes, cut.refusalBytes, "the error answer's bytes against those reported (bytes out)");
        if (cut.result == ServerCodec.PROTOCOL_ERROR) {
            String answer = new String(cut.output, (int) cut.responseBytes, (int) errorBytes, StandardCharsets.ISO_8859_1);
            assertTrue(answer.matches("(?s)HTTP/1\\.1 (400|413|431|505) [^\r\n]+\r\n.*Connection: close\r\n\r\n[^\n]+\n"),
                    answer);
            FuzzStreams.assertOneLine(cut.error);
        } else {
            assertEquals(0, errorBytes, "response bytes written beyond those served");
        }
    }

    private record Run(byte[] output, int served, long requestBytes, long responseBytes, long refusalBytes, int result,
                       String error) {
    }

    /** The stream in these pieces, through an output buffer of the parser's minimum plus {@code extra} bytes. */
    private static Run run(List<byte[]> pieces, int extra) {
        long[] counts = new long[4];
        HttpRequestParser parser = new HttpRequestParser(new ServerCodec.Settings(MAX_FRAME, RESPONSE_SIZE),
                new ServerCodec.Listener() {
                    @Override
                    public void requestServed(int requestBytes, int responseBytes) {
                        counts[0]++;
                        counts[1] += requestBytes;
                        counts[2] += responseBytes;
                    }

                    @Override
                    public void refusalAnswered(int responseBytes) {
                        counts[3] += responseBytes;
                    }
                });
        int size = parser.minOutput() + (pieces.isEmpty() || pieces.get(0).length == 0 ? 0 : pieces.get(0)[0] & 0x3F)
                + extra;
        ByteBuffer out = ByteBuffer.allocate(size);
        ByteArrayOutputStream written = new ByteArrayOutputStream();
        int last = ServerCodec.NEED_INPUT;
        for (byte[] piece : pieces) {
            ByteBuffer in = ByteBuffer.wrap(piece);
            while (true) {
                int result = parser.parse(in, out);
                if (result == ServerCodec.OUTPUT_FULL) {
                    assertTrue(out.position() > 0, "OUTPUT_FULL from an empty output buffer: no progress possible");
                    written.write(out.array(), 0, out.position());
                    out.clear();
                    continue;
                }
                if (last != ServerCodec.NEED_INPUT) {
                    assertEquals(0, out.position(), "output after the connection's end");
                }
                written.write(out.array(), 0, out.position());
                out.clear();
                if (result == ServerCodec.NEED_INPUT) {
                    assertEquals(0, in.remaining(), "NEED_INPUT with bytes unconsumed");
                    break;
                }
                assertTrue(result == ServerCodec.CLOSE || result == ServerCodec.PROTOCOL_ERROR, "result " + result);
                assertEquals(ServerCodec.NEED_INPUT, last, "a second end");
                last = result; // what follows is read and dropped
            }
        }
        return new Run(written.toByteArray(), (int) counts[0], counts[1], counts[2], counts[3], last, parser.error());
    }
}
