package io.nbench.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.protocol.Protocol;
import io.nbench.server.runtime.BusinessExecutor;
import io.nbench.server.runtime.BusinessRuntime;
import io.nbench.server.runtime.WorkMode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What every server transport does with {@code --protocol http}, checked byte for byte with a plain
 * {@link Socket}: keep-alive, pipelined requests answered in order, {@code Connection: close} and HTTP/1.0
 * closing after their response, 400, 413 and chunked bodies. Each runs with requests answered on the I/O
 * thread and on nbench's business pool (two code paths in every transport). Subclasses name the transport.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public abstract class HttpServerContract {

    private static final int BODY = 7;
    private static final int MAX_FRAME = 1000;
    private static final String OK = "HTTP/1.1 200 OK\r\nContent-Length: " + BODY + "\r\n\r\n";
    private static final String OK_BODY = OK + "xxxxxxx";
    private static final String OK_CLOSE = "HTTP/1.1 200 OK\r\nContent-Length: " + BODY
            + "\r\nConnection: close\r\n\r\nxxxxxxx";

    protected abstract Transport transport();

    private RunningServer server;
    private BusinessRuntime runtime;
    private TransportTesting.CountingEvents events;

    @BeforeEach
    void available() {
        Availability a = transport().availability();
        Assumptions.assumeTrue(a.available(), a.reason());
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
        if (runtime != null) {
            runtime.close();
        }
    }

    /** An HTTP server answering {@value #BODY} bytes; {@code pooled}: on a business pool of 4 threads. */
    private InetSocketAddress start(boolean pooled) throws IOException {
        events = new TransportTesting.CountingEvents();
        ServerRuntime with = ServerRuntime.INLINE;
        if (pooled) {
            runtime = new BusinessRuntime(Duration.ofMillis(1), WorkMode.SLEEP, new BusinessExecutor(4, 4, 1000));
            with = runtime;
        }
        server = transport().startServer(new ServerSettings(TransportTesting.ANY_PORT, Protocol.HTTP,
                TransportTesting.socket(), MAX_FRAME, TransportTesting.defaults(transport()), null, with, ListenSettings.DEFAULT,
                BODY), events);
        return server.address();
    }

    private static void send(Socket s, String request) throws IOException {
        s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
        s.getOutputStream().flush();
    }

    private static void exchange(Socket s, String request, String expected) throws IOException {
        send(s, request);
        assertEquals(expected, read(s.getInputStream(), expected.length()));
    }

    private static String read(InputStream in, int n) throws IOException {
        return new String(in.readNBytes(n), StandardCharsets.ISO_8859_1);
    }

    /** Everything until the server closes the connection (a reset after it counts as the close). */
    private static String readToClose(Socket s) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] b = new byte[4096];
        try {
            for (int n; (n = s.getInputStream().read(b)) >= 0; ) {
                all.write(b, 0, n);
            }
        } catch (SocketException e) {
            // reset: closed
        }
        return all.toString(StandardCharsets.ISO_8859_1);
    }

    /** Everything until the server closes the connection, or what came before the socket's read timeout. */
    private static String answerOrTimeout(Socket s) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] b = new byte[4096];
        try {
            for (int n; (n = s.getInputStream().read(b)) >= 0; ) {
                all.write(b, 0, n);
            }
        } catch (SocketTimeoutException e) {
            return all.toString(StandardCharsets.ISO_8859_1) + "(connection still open after " + s.getSoTimeout()
                    + " ms)";
        } catch (SocketException e) {
            // reset: closed
        }
        return all.toString(StandardCharsets.ISO_8859_1);
    }

    /** The requests counted served, once they all are (the last may be counted just after its response left). */
    private void awaitServed(int expected) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (events.served.get() < expected && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertEquals(expected, events.served.get(), "requests counted served");
    }

    /**
     * GET, POST with a Content-Length body, chunked POST with an extension and a trailer, HEAD (no body) and an
     * HTTP/1.0 request asking for keep-alive, pipelined in one write 5 times over and each connection kept open:
     * every response in request order (HEAD's and 1.0's differ from the others), each request counted once.
     */
    @ParameterizedTest(name = "pooled {0}")
    @ValueSource(booleans = {false, true})
    void answersPipelinedRequestsInOrderAndKeepsTheConnection(boolean pooled) throws Exception {
        InetSocketAddress a = start(pooled);
        String requests = "GET /a HTTP/1.1\r\nHost: x\r\n\r\n"
                + "POST /b?q=1 HTTP/1.1\r\nHost: x\r\ncontent-length: 5\r\n\r\nhello"
                + "POST /c HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3;ext=1\r\nabc\r\nA\r\n0123456789\r\n0\r\n"
                + "X-Trailer: t\r\n\r\n"
                + "HEAD /d HTTP/1.1\r\nConnection: keep-alive\r\n\r\n"
                + "GET /e HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n";
        String responses = OK_BODY + OK_BODY + OK_BODY + OK
                + "HTTP/1.1 200 OK\r\nContent-Length: 7\r\nConnection: keep-alive\r\n\r\nxxxxxxx";
        try (Socket s = ServerContract.connect(a)) {
            for (int round = 0; round < 5; round++) {
                exchange(s, requests + requests, responses + responses);
            }
        }
        awaitServed(50);
        assertEquals(0, events.protocolErrors.availablePermits());
    }

    /** A request written one byte at a time, chunked body included, is answered once whole. */
    @ParameterizedTest(name = "pooled {0}")
    @ValueSource(booleans = {false, true})
    void answersARequestWrittenByteByByte(boolean pooled) throws Exception {
        InetSocketAddress a = start(pooled);
        byte[] request = ("PUT /x HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n2\r\nab\r\n0\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
        try (Socket s = ServerContract.connect(a)) {
            OutputStream out = s.getOutputStream();
            for (byte b : request) {
                out.write(b);
                out.flush();
            }
            assertEquals(OK_BODY, read(s.getInputStream(), OK_BODY.length()));
            exchange(s, "GET / HTTP/1.1\r\n\r\n", OK_BODY);
        }
        awaitServed(2);
    }

    /**
     * {@code Connection: close} and HTTP/1.0 without keep-alive: the response says {@code Connection: close}
     * and the server closes after it; requests pipelined behind it are not answered (RFC 9112 9.6).
     */
    @ParameterizedTest(name = "pooled {0}")
    @ValueSource(booleans = {false, true})
    void closesAfterTheLastResponse(boolean pooled) throws Exception {
        InetSocketAddress a = start(pooled);
        try (Socket s = ServerContract.connect(a)) {
            send(s, "GET / HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\nConnection: close\r\n\r\nGET /never HTTP/1.1\r\n\r\n");
            assertEquals(OK_BODY + OK_CLOSE, readToClose(s));
        }
        try (Socket s = ServerContract.connect(a)) {
            send(s, "GET / HTTP/1.0\r\nUser-Agent: ab\r\n\r\n");
            assertEquals(OK_CLOSE, readToClose(s));
        }
        awaitServed(3);
        assertTrue(events.closed.tryAcquire(2, 10, TimeUnit.SECONDS), "both connections closed");
        assertEquals(0, events.protocolErrors.availablePermits());
    }

    /**
     * A malformed request is answered 400 with a one-line body and {@code Connection: close}, after the
     * responses of the requests before it, and the connection closes; it counts as a protocol error.
     */
    @ParameterizedTest(name = "pooled {0}")
    @ValueSource(booleans = {false, true})
    void answersAMalformedRequest400AndCloses(boolean pooled) throws Exception {
        InetSocketAddress a = start(pooled);
        try (Socket s = ServerContract.connect(a)) {
            exchange(s, "GET / HTTP/1.1\r\n\r\n", OK_BODY);
            send(s, "GET / HTTP/1.1\r\nHost x\r\n\r\n");
            String answer = readToClose(s);
            assertTrue(answer.startsWith("HTTP/1.1 400 Bad Request\r\n"), answer);
            assertTrue(answer.contains("\r\nConnection: close\r\n"), answer);
            String body = answer.substring(answer.indexOf("\r\n\r\n") + 4);
            // Why, in one line: the shared parser's words, or Netty's HttpServerCodec's.
            assertTrue(body.startsWith("malformed HTTP request: ") && body.indexOf('\n') == body.length() - 1, body);
            assertTrue(answer.contains("\r\nContent-Length: " + body.length() + "\r\n"), answer);
        }
        assertTrue(events.protocolErrors.tryAcquire(10, TimeUnit.SECONDS), "protocol error counted");
        awaitServed(1);
    }

    /**
     * What is not HTTP/1.1 or HTTP/1.0 is refused alike on every transport (docs/protocol.md), after the response
     * to a request before it on the connection: a header line folded onto the next (obs-fold, RFC 9112 5.2: a line
     * starting with a space or a tab) 400, another version 505, and so is HTTP/2's connection preface (RFC 9113
     * 3.4), whose first line reads as a request of version HTTP/2.0. Each answer has {@code Connection: close}
     * and a one-line body, the connection closes, a protocol error is counted and the answer's bytes are the
     * server's (refusalAnswered); the refused request is not counted served.
     */
    @ParameterizedTest(name = "pooled {0}")
    @ValueSource(booleans = {false, true})
    void refusesFoldedLinesAndOtherVersions(boolean pooled) throws Exception {
        InetSocketAddress a = start(pooled);
        String[][] cases = {
            {"GET / HTTP/1.1\r\nHost: x\r\nX-Folded: a\r\n b\r\n\r\n", "400 Bad Request"},
            {"GET / HTTP/1.1\r\nX-Folded: a\r\n\tb\r\nHost: x\r\n\r\n", "400 Bad Request"},
            {"GET / HTTP/2.0\r\nHost: x\r\n\r\n", "505 HTTP Version Not Supported"},
            {"GET / HTTP/1.2\r\nHost: x\r\n\r\n", "505 HTTP Version Not Supported"},
            {"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "505 HTTP Version Not Supported"},
        };
        long refused = 0;
        for (String[] c : cases) {
            String answer;
            try (Socket s = ServerContract.connect(a)) {
                exchange(s, "GET / HTTP/1.1\r\n\r\n", OK_BODY);
                send(s, c[0]);
                answer = answerOrTimeout(s);
            }
            String request = c[0].replace("\r", "\\r").replace("\n", "\\n").replace("\t", "\\t");
            assertTrue(answer.startsWith("HTTP/1.1 " + c[1] + "\r\n"), request + " answered " + answer);
            assertTrue(answer.contains("\r\nConnection: close\r\n"), answer);
            String body = answer.substring(answer.indexOf("\r\n\r\n") + 4);
            assertTrue(!body.isEmpty() && body.indexOf('\n') == body.length() - 1, body);
            assertTrue(answer.contains("\r\nContent-Length: " + body.length() + "\r\n"), answer);
            assertTrue(events.protocolErrors.tryAcquire(10, TimeUnit.SECONDS), request + ": protocol error counted");
            assertTrue(events.lastError.endsWith("; answered " + c[1].substring(0, 3)), events.lastError);
            refused += answer.length();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (events.refusalBytes.get() < refused && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertEquals(refused, events.refusalBytes.get(), request + ": the answer's bytes counted");
        }
        awaitServed(cases.length);
    }

    /**
     * A body over --max-frame, declared or chunked, is answered 413 and the connection closes: the declared one
     * before it is read, the chunked one as soon as a chunk's size (shared parser) or data (Netty's codec) passes.
     */
    @ParameterizedTest(name = "pooled {0}")
    @ValueSource(booleans = {false, true})
    void refusesABodyOverMaxFrame413(boolean pooled) throws Exception {
        InetSocketAddress a = start(pooled);
        for (String request : new String[] {"POST / HTTP/1.1\r\nContent-Length: " + (MAX_FRAME + 1) + "\r\n\r\n",
            "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n200\r\n" + "y".repeat(0x200) + "\r\n3e9\r\n"
                    + "y".repeat(0x3e9) + "\r\n0\r\n\r\n"}) {
            try (Socket s = ServerContract.connect(a)) {
                exchange(s, "POST / HTTP/1.1\r\nContent-Length: " + MAX_FRAME + "\r\n\r\n" + "z".repeat(MAX_FRAME),
                        OK_BODY);
                send(s, request);
                String answer = readToClose(s);
                assertTrue(answer.startsWith("HTTP/1.1 413 Content Too Large\r\n"), answer);
                assertTrue(answer.contains("\r\nConnection: close\r\n"), answer);
                assertTrue(answer.endsWith(" bytes > --max-frame " + MAX_FRAME + "\n"), answer);
            }
            assertTrue(events.protocolErrors.tryAcquire(10, TimeUnit.SECONDS), "protocol error counted");
        }
        awaitServed(2);
    }

    /**
     * A 413's reason quotes the Content-Length the request declared, whole: one past any int (2^40) as sent, one
     * past a 64-bit length (2^63) said to be so, on every transport (before, the shared parser capped the figure
     * at 2^31 and Netty answered 2^63 400 "not a number").
     */
    @ParameterizedTest(name = "pooled {0}")
    @ValueSource(booleans = {false, true})
    void quotesTheDeclaredLengthIn413(boolean pooled) throws Exception {
        refuses413(pooled, new String[][] {
            {"POST / HTTP/1.1\r\nContent-Length: 1099511627776\r\n\r\n", "request body of 1099511627776 bytes"},
            {"POST / HTTP/1.1\r\nContent-Length: 9223372036854775808\r\n\r\n",
                "request body beyond a 64-bit length"},
        });
    }

    /**
     * As {@link #quotesTheDeclaredLengthIn413} for a chunk size, quoted once its line is whole (before, the shared
     * parser quoted it cut at the digit that passed --max-frame: 268435456 for 2^40).
     */
    @ParameterizedTest(name = "pooled {0}")
    @ValueSource(booleans = {false, true})
    protected void quotesTheDeclaredChunkSizeIn413(boolean pooled) throws Exception {
        refuses413(pooled, new String[][] {
            {"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n10000000000\r\nyyyy",
                "request body of 1099511627776 bytes"},
            {"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n80000000000000000\r\nyyyy",
                "request body beyond a 64-bit length"},
        });
    }

    private void refuses413(boolean pooled, String[][] cases) throws Exception {
        InetSocketAddress a = start(pooled);
        for (String[] c : cases) {
            String answer;
            try (Socket s = ServerContract.connect(a)) {
                send(s, c[0]);
                answer = readToClose(s);
            }
            String request = c[0].replace("\r", "\\r").replace("\n", "\\n");
            answer = answer.replace("\r", "\\r").replace("\n", "\\n");
            assertTrue(answer.startsWith("HTTP/1.1 413 Content Too Large\\r\\n"), request + " answered " + answer);
            assertTrue(answer.endsWith("\\r\\n\\r\\n" + c[1] + " > --max-frame " + MAX_FRAME + "\\n"),
                    request + " answered " + answer);
            assertTrue(events.protocolErrors.tryAcquire(10, TimeUnit.SECONDS), request + ": protocol error counted");
        }
    }
}
