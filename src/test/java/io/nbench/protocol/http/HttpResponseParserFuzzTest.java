package io.nbench.protocol.http;

import static io.nbench.testkit.FuzzStreams.MAX_FRAME;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.nbench.protocol.ClientCodec;
import io.nbench.protocol.ClientRequest;
import io.nbench.protocol.Protocol;
import io.nbench.protocol.RequestTemplate;
import io.nbench.protocol.ResponseHead;
import io.nbench.protocol.WireBytes;
import io.nbench.testkit.FuzzStreams;
import io.nbench.transport.ConnectionHandler;
import io.nbench.transport.ErrorKind;
import io.nbench.transport.PayloadView;
import io.nbench.transport.support.ByteBufferPayloadView;
import io.nbench.transport.support.ResponseDecoder;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Fuzzes the HTTP/1.1 response parser the way the nio client drives it (read, decode, compact or grow):
 * it must never throw, report a bad response with one line, and frame the same responses whether the
 * stream comes in one read or cut into pieces anywhere: a response is framed by its bytes, not by how
 * they arrived.
 */
class HttpResponseParserFuzzTest {

    private static final RequestTemplate TEMPLATE = RequestTemplate.of(Protocol.HTTP,
            Protocol.HTTP.newClientCodec(new ClientRequest("GET", "h", "/", List.of()), false), 0, 0, 1);

    @FuzzTest(maxDuration = "10s")
    void responseStream(byte[] input) {
        byte[] stream = FuzzStreams.stream(input);
        List<String> whole = decode(List.of(stream));
        List<String> pieces = decode(FuzzStreams.pieces(input));
        assertEquals(whole, pieces, "framed differently when the stream came in pieces");
        assertOnePassAgrees(stream);
    }

    /**
     * The one pass over a head that decoders make (frame with a {@link ResponseHead}) finds what the
     * separate questions (frame, status, payloadOffset) find, response after response in the stream.
     */
    private static void assertOnePassAgrees(byte[] stream) {
        ClientCodec codec = TEMPLATE.codec();
        ResponseHead head = new ResponseHead();
        ByteBufferPayloadView view = new ByteBufferPayloadView().wrap(ByteBuffer.wrap(stream), 0, 0);
        int at = 0;
        while (at < stream.length) {
            WireBytes rest = view.at(at, stream.length - at);
            int total = codec.frame(rest, 0, MAX_FRAME, head);
            assertEquals(codec.frame(rest, 0, MAX_FRAME), total, "one pass framed differently at " + at);
            if (total <= 0) {
                return;
            }
            assertEquals(codec.status(rest), head.status(), "one pass read another status at " + at);
            assertEquals(codec.payloadOffset(rest), head.payloadOffset(), "one pass found another body at " + at);
            assertEquals(codec.id(rest), head.id());
            at += total;
        }
    }

    /** What the decoder reports for the stream in these pieces: each response's status and sizes, or the error. */
    private static List<String> decode(List<byte[]> reads) {
        List<String> seen = new ArrayList<>();
        ResponseDecoder decoder = new ResponseDecoder(TEMPLATE, MAX_FRAME, new ConnectionHandler() {
            @Override
            public void onResponse(long id, int status, PayloadView payload) {
                int code = status & ~ClientCodec.CLOSES;
                assertTrue(code >= 0 && code <= 999, "status " + status);
                assertTrue(payload.length() >= 0, "payload of " + payload.length() + " bytes");
                seen.add(status + "/" + payload.length());
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
        ByteBuffer buf = ByteBuffer.allocate(ResponseDecoder.initialCapacity(TEMPLATE));
        for (byte[] piece : reads) {
            int at = 0;
            while (at < piece.length) {
                int n = Math.min(buf.remaining(), piece.length - at);
                assertTrue(n > 0, "no room to read into after compacting: the decoder cannot progress");
                buf.put(piece, at, n);
                at += n;
                buf.flip();
                if (!decoder.decode(buf)) {
                    FuzzStreams.assertOneLine(decoder.error());
                    assertTrue(decoder.error().startsWith("the peer's response is not HTTP/1.1: "), decoder.error());
                    seen.add("error");
                    return seen;
                }
                assertTrue(decoder.needed() <= 2 * HttpResponseParser.MAX_HEAD + 2 * MAX_FRAME + 64,
                        "needs " + decoder.needed() + " bytes");
                buf = decoder.compactOrGrow(buf, false);
            }
        }
        return seen;
    }
}
