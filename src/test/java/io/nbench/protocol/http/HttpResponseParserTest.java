package io.nbench.protocol.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.protocol.ClientCodec;
import io.nbench.protocol.ClientRequest;
import io.nbench.protocol.WireBytes;
import io.nbench.transport.support.ByteBufferPayloadView;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The HTTP/1.1 response framing every client transport but netty shares, and the request head it writes. */
class HttpResponseParserTest {

    private static final int MAX = 1 << 20;
    private static final ClientCodec GET = new HttpClientCodec(
            new ClientRequest("GET", "example:8080", "/a?b=1", List.of("Accept: */*")), false);

    static WireBytes wire(String text) {
        byte[] b = text.getBytes(StandardCharsets.ISO_8859_1);
        return new ByteBufferPayloadView().wrap(ByteBuffer.wrap(b), 0, b.length);
    }

    /** Every prefix of a response needs more bytes; the whole response is framed at its exact length. */
    private static void framesExactly(ClientCodec codec, String response, String trailing) {
        for (int n = 0; n < response.length(); n++) {
            int r = codec.frame(wire(response.substring(0, n)), 0, MAX);
            assertTrue(r < 0 && r != ClientCodec.BAD && -r > n, "prefix of " + n + " bytes gave " + r);
        }
        assertEquals(response.length(), codec.frame(wire(response + trailing), 0, MAX));
    }

    @Test
    void aContentLengthBodyIsFramedAtItsLastByte() {
        String r = "HTTP/1.1 200 OK\r\nServer: nginx\r\nContent-Length: 5\r\nConnection: keep-alive\r\n\r\nhello";
        framesExactly(GET, r, "HTTP/1.1 200 OK\r\n");
        WireBytes w = wire(r);
        assertEquals(200, GET.status(w));
        assertTrue(GET.success(GET.status(w)));
        assertEquals(r.length() - 5, GET.payloadOffset(w));
    }

    @Test
    void aChunkedBodyWithExtensionsAndTrailersIsFramedAfterItsTrailers() {
        String r = "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5;x=y\r\nhello\r\n10\r\n0123456789abcdef\r\n"
                + "0\r\nX-Trailer: 1\r\n\r\n";
        framesExactly(GET, r, "HTTP/1.1");
    }

    @Test
    void noBodyFor204And304AndHeadAndInterimResponsesGoWithTheFinalOne() {
        framesExactly(GET, "HTTP/1.1 204 No Content\r\n\r\n", "x");
        framesExactly(GET, "HTTP/1.1 304 Not Modified\r\nContent-Length: 99\r\n\r\n", "");
        ClientCodec head = new HttpClientCodec(new ClientRequest("HEAD", "h", "/", List.of()), false);
        framesExactly(head, "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n", "");
        String continued = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 404 Not Found\r\nContent-Length: 2\r\n\r\nno";
        framesExactly(GET, continued, "");
        assertEquals(404, GET.status(wire(continued)));
        assertFalse(GET.success(GET.status(wire(continued))));
        assertEquals(continued.length() - 2, GET.payloadOffset(wire(continued)));
    }

    @Test
    void connectionCloseAndHttp10AreReportedWithTheStatus() {
        int close = GET.status(wire("HTTP/1.1 503 Busy\r\nContent-Length: 0\r\nConnection: Close\r\n\r\n"));
        assertEquals(503 | ClientCodec.CLOSES, close);
        assertFalse(GET.success(close));
        assertTrue(GET.success(GET.status(wire("HTTP/1.1 200 OK\r\nConnection: foo, close\r\nContent-Length: 0\r\n\r\n"))));
        assertEquals(200 | ClientCodec.CLOSES, GET.status(wire("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n")));
        assertEquals(200, GET.status(wire("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n")));
        assertEquals(200, GET.status(wire("HTTP/1.1 200 OK\r\nX-Connection: close\r\nContent-Length: 0\r\n\r\n")));
    }

    @Test
    void whatIsNotAnHttpResponseIsRefusedWithOneLineNamingTheProblem() {
        assertBad("\0\0\0\r", "does not start with 'HTTP/1.'");
        assertBad("HTTP/1.1 2x0 OK\r\n", "status line is not");
        assertBad("HTTP/1.1 200 OK\r\nContent-Length: 12x\r\n\r\n", "Content-Length is not one decimal number");
        assertBad("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", "Content-Length");
        assertBad("HTTP/1.1 200 OK\r\nServer: x\r\n\r\nbody", "neither Content-Length nor chunked");
        assertBad("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n", "Transfer-Encoding does not end with chunked");
        assertBad("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "chunk size is not");
        assertBad("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabcd", "not followed by CRLF");
        assertBad("HTTP/1.1 200 OK\r\nbroken header\r\n\r\n", "no 'name:'");
        assertBad("HTTP/1.1 200 OK\r\nContent-Length: " + (MAX + 1) + "\r\n\r\n", "larger than the client accepts");
        assertBad("HTTP/1.1 200 OK\r\nX: " + "y".repeat(HttpResponseParser.MAX_HEAD), "longer than");
    }

    private static void assertBad(String response, String reason) {
        WireBytes w = wire(response);
        assertEquals(ClientCodec.BAD, GET.frame(w, 0, MAX), response);
        String problem = GET.problem(w, MAX);
        assertTrue(problem.startsWith("the peer's response is not HTTP/1.1: ") && problem.contains(reason), problem);
    }

    @Test
    void theRequestHeadNamesTheUrlsHostAndSendsABodyOnlyForPostPutAndPatch() {
        ByteBuffer b = ByteBuffer.allocate(256);
        GET.writeRequestHeader(b, GET.requestPayloadSize(1024), 0);
        assertEquals("GET /a?b=1 HTTP/1.1\r\nHost: example:8080\r\nAccept: */*\r\n\r\n",
                new String(b.array(), 0, b.position(), StandardCharsets.ISO_8859_1));
        assertEquals(0, GET.requestPayloadSize(1024));
        ClientCodec post = new HttpClientCodec(new ClientRequest("POST", "h", "/p", List.of("Host: other")), true);
        b.clear();
        post.writeRequestHeader(b, post.requestPayloadSize(10), 0);
        assertEquals("POST /p HTTP/1.1\r\nHost: other\r\nContent-Length: 10\r\nConnection: close\r\n\r\n",
                new String(b.array(), 0, b.position(), StandardCharsets.ISO_8859_1));
        assertEquals(b.position(), post.requestOverhead(10));
    }
}
