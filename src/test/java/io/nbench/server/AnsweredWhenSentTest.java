package io.nbench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.protocol.Framed;
import io.nbench.protocol.Protocol;
import io.nbench.server.metrics.Counters;
import io.nbench.testkit.TestServers;
import io.nbench.testkit.Transports;
import io.nbench.transport.OptionValues;
import io.nbench.transport.RunningServer;
import io.nbench.transport.ServerRuntime;
import io.nbench.transport.ServerSettings;
import io.nbench.transport.SocketSettings;
import io.nbench.transport.Transport;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A server counts a response answered (its metrics' requests and bytes out) only once it left: the peer receives
 * exactly what the server counts, on every network server transport, with peers that end the exchange
 * themselves: one that half-closes after its requests (then reads to EOF), and HTTP's pipelined
 * {@code Connection: close} (RFC 9112 9.6: every request before it answered, none after). One server per
 * transport and protocol for the class, with the server's real metrics; each test reads their change.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class AnsweredWhenSentTest {

    private static final Map<String, Served> SERVERS = new ConcurrentHashMap<>();
    private static final int FRAMED_RESPONSE = 100;
    private static final String GET = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
    private static final Pattern STATUS_LINE = Pattern.compile("HTTP/1\\.1 200 OK\r\n");

    /** A shared server and its metrics. */
    private record Served(RunningServer server, ServerMetrics metrics) {
        Counters counts() {
            return metrics.snapshot().sinceStart();
        }
    }

    private static Served server(String impl, Protocol protocol) {
        return SERVERS.computeIfAbsent(impl + "/" + protocol, k -> {
            ServerMetrics metrics = new ServerMetrics(new PrintWriter(new StringWriter()));
            return new Served(TestServers.start(impl, protocol, metrics, Map.of(), ServerRuntime.INLINE), metrics);
        });
    }

    /** A framed server whose sockets' kernel buffers are {@value #SMALL_BUFFER} bytes (Linux doubles them). */
    private static Served smallBuffers(String impl) {
        return SERVERS.computeIfAbsent(impl + "/small", k -> {
            ServerMetrics metrics = new ServerMetrics(new PrintWriter(new StringWriter()));
            Transport t = Transports.get(impl);
            try {
                return new Served(t.startServer(new ServerSettings(new InetSocketAddress("127.0.0.1", 0),
                        Protocol.FRAMED, new SocketSettings(1, true, SMALL_BUFFER, SMALL_BUFFER), TestServers.MAX_FRAME,
                        OptionValues.resolve(t.options(), Map.of())), metrics), metrics);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    private static final int SMALL_BUFFER = 64 * 1024;

    @AfterAll
    static void stopServers() {
        SERVERS.values().forEach(s -> s.server().close());
        SERVERS.clear();
    }

    static Stream<Arguments> transportsAndProtocols() {
        return Transports.network().stream()
                .flatMap(t -> Stream.of(Arguments.of(t, Protocol.FRAMED), Arguments.of(t, Protocol.HTTP)));
    }

    static Stream<String> transports() {
        return Transports.network().stream();
    }

    /**
     * A peer writes 3 pipelined requests and shuts its output down (a real half-close: FIN), then reads to EOF:
     * it receives the 3 responses whole and the server counts 3 answered and exactly the bytes the peer read.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("transportsAndProtocols")
    void aPeerThatHalfClosesReceivesEveryResponseTheServerCounts(String impl, Protocol protocol) throws Exception {
        Served served = server(impl, protocol);
        Counters before = served.counts();
        int requests = 3;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < requests; i++) {
            out.write(protocol == Protocol.HTTP ? GET.getBytes(StandardCharsets.ISO_8859_1)
                    : ByteBuffer.allocate(Framed.REQUEST_HEADER + 10).putInt(Framed.requestFrameLength(10))
                            .putInt(FRAMED_RESPONSE).putLong(i + 1).array());
        }
        byte[] received;
        try (Socket s = connect(served)) {
            s.getOutputStream().write(out.toByteArray());
            s.shutdownOutput();
            received = readToEof(s);
        }
        int responses = protocol == Protocol.HTTP ? statusLines(received)
                : received.length / (Framed.RESPONSE_HEADER + FRAMED_RESPONSE);
        if (protocol == Protocol.FRAMED) {
            assertEquals(requests * (Framed.RESPONSE_HEADER + FRAMED_RESPONSE), received.length,
                    impl + ": bytes the half-closed peer received of its " + requests + " responses");
        }
        assertEquals(requests, responses, impl + " " + protocol.label() + ": responses the half-closed peer received ("
                + received.length + " bytes)");
        Counters counted = settled(served, before, requests);
        assertEquals(requests, counted.requests(), "answered: " + counted);
        assertEquals(received.length, counted.bytesOut(), "bytes out against the bytes the peer received: " + counted);
    }

    /**
     * 499 requests, one with {@code Connection: close}, then 500 more, in one write: exactly 500 responses, the last
     * saying {@code Connection: close}, then EOF; the server counts 500 answered and the bytes the peer read.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("transports")
    void pipelinedConnectionCloseIsAnsweredAfterEveryRequestBeforeIt(String impl) throws Exception {
        Served served = server(impl, Protocol.HTTP);
        Counters before = served.counts();
        String close = "GET /last HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
        String all = GET.repeat(499) + close + GET.repeat(500);
        byte[] received;
        try (Socket s = connect(served)) {
            s.getOutputStream().write(all.getBytes(StandardCharsets.ISO_8859_1));
            s.getOutputStream().flush();
            received = readToEof(s);
        }
        String text = new String(received, StandardCharsets.ISO_8859_1);
        assertEquals(500, statusLines(received), impl + ": responses before EOF (" + received.length + " bytes)");
        int last = text.lastIndexOf("HTTP/1.1 200 OK\r\n");
        assertTrue(text.indexOf("Connection: close") == text.lastIndexOf("Connection: close")
                && text.indexOf("Connection: close") > last, impl + ": the last response, and only it, says "
                + "Connection: close: " + text.substring(last));
        Counters counted = settled(served, before, 500);
        assertEquals(500, counted.requests(), "answered: " + counted);
        assertEquals(received.length, counted.bytesOut(), "bytes out against the bytes the peer received: " + counted);
    }

    /**
     * A peer asks for 4 responses of 8 MiB, reads the first one's header and resets the connection: no response can have left
     * whole (the kernel's buffers on both sides hold well under 1 MiB here), so none is answered, and every
     * request the server took is dropped on close. Before, a request counted answered as soon as its response
     * was queued.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("transports")
    void aResponseThatNeverLeftWholeIsNotCountedAnswered(String impl) throws Exception {
        Served served = smallBuffers(impl);
        Counters before = served.counts();
        int response = 8 << 20;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < 4; i++) {
            out.write(ByteBuffer.allocate(Framed.REQUEST_HEADER).putInt(Framed.MIN_REQUEST_FRAME).putInt(response)
                    .putLong(i + 1).array());
        }
        try (Socket s = new Socket()) {
            s.setReceiveBufferSize(SMALL_BUFFER);
            s.connect(served.server().address(), 5_000);
            s.getOutputStream().write(out.toByteArray());
            s.setSoTimeout(10_000);
            // The first response's header: the server is answering (it may count a streamed request only whole).
            assertEquals(Framed.RESPONSE_HEADER, s.getInputStream().readNBytes(Framed.RESPONSE_HEADER).length);
            s.setSoLinger(true, 0); // the close resets: what the server still holds can never be sent
        }
        Counters counted = settled(served, before, 0);
        assertEquals(0, counted.requests(), impl + ": answered, with no response sent whole: " + counted);
        assertEquals(counted.received(), counted.dropped(), impl + ": every request received dropped on close: "
                + counted);
    }

    private static Socket connect(Served served) throws IOException {
        Socket s = new Socket();
        s.setTcpNoDelay(true);
        s.setSoTimeout(10_000);
        s.connect(served.server().address(), 5_000);
        return s;
    }

    /** Everything until the server closes (a reset after it counts as the close). */
    private static byte[] readToEof(Socket s) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] b = new byte[8192];
        try {
            for (int n; (n = s.getInputStream().read(b)) >= 0; ) {
                all.write(b, 0, n);
            }
        } catch (SocketException e) {
            // reset: closed
        }
        return all.toByteArray();
    }

    private static int statusLines(byte[] received) {
        Matcher m = STATUS_LINE.matcher(new String(received, StandardCharsets.ISO_8859_1));
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    /**
     * The counts since {@code before} once the server is done with the connection: it is closed on the server's
     * side and at least {@code answered} requests are counted (a count may follow its bytes to the peer by a moment).
     */
    private static Counters settled(Served served, Counters before, int answered) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        Counters now = served.counts().minus(before);
        while ((served.metrics().openConnections() > 0 || now.requests() < answered) && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5)); // awaiting the server's close and counts
            now = served.counts().minus(before);
        }
        return now;
    }
}
