package io.nbench.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.load.Driver;
import io.nbench.load.Measure;
import io.nbench.load.RunResult;
import io.nbench.protocol.Framed;
import io.nbench.protocol.Protocol;
import io.nbench.protocol.RequestTemplate;
import io.nbench.testkit.StalledListener;
import io.nbench.transport.netty.NettyTransport;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What every client transport must do, and interoperability through the engine: this transport's
 * client against the netty server, the netty client against this transport's server, and this
 * transport against itself, over {@link TransportTesting#cases()}, with exact message counts and no
 * errors. Subclasses name the transport.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
public abstract class ClientContract {

    private static final int THREADS = 2;
    private static final int CONNECTIONS = 2;
    private static final long MSGS = 200;

    protected abstract Transport transport();

    private final Transport netty = new NettyTransport();

    @BeforeEach
    void available() {
        Availability a = transport().availability();
        Assumptions.assumeTrue(a.available(), a.reason());
    }

    static List<TransportTesting.Case> cases() {
        return TransportTesting.cases();
    }

    private static void assertClean(RunResult r, TransportTesting.Case c) {
        assertFalse(r.aborted(), () -> c + ": aborted: " + r.abortReason() + " " + r.firstErrors());
        assertEquals(0, r.errors().total(), () -> c + ": errors " + r.errors().nonZero() + " " + r.firstErrors());
        assertEquals(THREADS * MSGS * 2, r.summary().messages(), () -> c + ": messages");
        if (c.measure() == Measure.RTT) {
            assertEquals(0, r.lateResponses(), () -> c + ": late or unknown responses");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void clientAgainstNettyServer(TransportTesting.Case c) throws Exception {
        assertClean(TransportTesting.run(transport(), netty, c, THREADS, CONNECTIONS, MSGS), c);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void nettyClientAgainstServer(TransportTesting.Case c) throws Exception {
        assertClean(TransportTesting.run(netty, transport(), c, THREADS, CONNECTIONS, MSGS), c);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void clientAgainstOwnServer(TransportTesting.Case c) throws Exception {
        assertClean(TransportTesting.run(transport(), transport(), c, THREADS, CONNECTIONS, MSGS), c);
    }

    /**
     * Options that set this transport's buffers to {@code bytes}, to exercise partial reads and writes,
     * frames streamed through buffers smaller than them, and requests waiting for room; empty if it has none.
     */
    protected Map<String, String> buffers(String bytes) {
        return Map.of();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void againstItselfWithTinyBuffers(TransportTesting.Case c) throws Exception {
        // The smallest allowed for small messages; 100 KiB frames through 64 bytes would take 1,600
        // system calls each, too slow for a unit test on two cores.
        Map<String, String> options = buffers(c.size() > 1024 ? "4k" : "64");
        Assumptions.assumeFalse(options.isEmpty(), "no buffer options");
        assertClean(TransportTesting.run(transport(), transport(), c, THREADS, CONNECTIONS, MSGS, options), c);
    }

    @Test
    void moreThreadsThanConnectionsShareThemSafely() throws Exception {
        TransportTesting.Case c = new TransportTesting.Case(Protocol.FRAMED, 100, 100, 8,
                Driver.THREADS, Measure.RTT);
        RunResult r = TransportTesting.run(transport(), transport(), c, 4, 1, 300);
        assertEquals(0, r.errors().total(), () -> r.errors().nonZero() + " " + r.firstErrors());
        assertEquals(4 * 300 * 2, r.summary().messages());
    }

    @Test
    void connectRefusedSaysSo() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        try (ClientTransport client = TransportTesting.newClient(transport(), Protocol.FRAMED, false)) {
            // A typed failure: the engine retries it and the CLI hints at a missing server by its kind.
            TransportFailure e = assertThrows(TransportFailure.class, () -> client.connect(
                    new InetSocketAddress("127.0.0.1", port), RequestTemplate.framed(1, 1, 1), new Recorder()));
            assertEquals(TransportFailure.Kind.REFUSED, e.kind());
            assertEquals("Connection refused", e.getMessage());
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS) // a client that ignored its 300 ms would wait out the kernel's SYN retries (~2 min)
    void connectTimeoutSaysSo() throws Exception {
        try (StalledListener listener = new StalledListener()) {
            ClientSettings settings = new ClientSettings(Protocol.FRAMED, TransportTesting.socket(),
                    Duration.ofMillis(300), false, Vectors.MAX_FRAME, TransportTesting.defaults(transport()));
            try (ClientTransport client = transport().newClient(settings)) {
                TransportFailure e = assertThrows(TransportFailure.class, () -> client.connect(listener.address(),
                        RequestTemplate.framed(1, 1, 1), new Recorder()));
                assertEquals(TransportFailure.Kind.TIMED_OUT, e.kind());
                assertEquals("connect timed out after 300 ms", e.getMessage());
            }
        }
    }

    @Test
    void reportsAProtocolErrorThenClosedOnce() throws Exception {
        Recorder recorder = new Recorder();
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             ClientTransport client = TransportTesting.newClient(transport(), Protocol.FRAMED, false)) {
            ClientConnection c = client.connect((InetSocketAddress) listener.getLocalSocketAddress(),
                    RequestTemplate.framed(1, 1, 1), recorder);
            try (Socket peer = listener.accept()) {
                c.send(5);
                InputStream in = peer.getInputStream();
                in.readNBytes(Framed.REQUEST_HEADER + 1);
                // frameLength 3 < 9: not even room for id and status
                peer.getOutputStream().write(new byte[] {0, 0, 0, 3, 1, 2, 3});
                assertTrue(recorder.closed.await(10, TimeUnit.SECONDS));
            }
        }
        assertOnceAfterClose(recorder);
        assertEquals(ErrorKind.PROTOCOL, recorder.errors.poll());
        assertTrue(recorder.errors.isEmpty(), () -> "errors after the first " + recorder.errors);
    }

    /**
     * Counted after the client's {@code close()} has returned, when no callback may come any more: a second
     * {@code onClosed}, response or written event that a transport fires a moment after the first is then
     * seen every time, not only when the test thread happens to read late. The test has taken the events it
     * expected from the queues; nothing may be left in them.
     */
    private static void assertOnceAfterClose(Recorder recorder) {
        assertEquals(1, recorder.closes.get(), "onClosed once, before close() returns");
        assertTrue(recorder.responses.isEmpty(), () -> "responses beyond those expected " + recorder.responses);
        assertTrue(recorder.written.isEmpty(), () -> "written events beyond those expected " + recorder.written);
    }

    @Test
    void reportsResponsesAndClosedWhenThePeerCloses() throws Exception {
        Recorder recorder = new Recorder();
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             ClientTransport client = TransportTesting.newClient(transport(), Protocol.FRAMED, true)) {
            RequestTemplate template = RequestTemplate.framed(3, 3, 1);
            ClientConnection c = client.connect((InetSocketAddress) listener.getLocalSocketAddress(), template, recorder);
            try (Socket peer = listener.accept()) {
                c.send(7);
                assertEquals(7L, recorder.written.poll(10, TimeUnit.SECONDS));
                byte[] request = peer.getInputStream().readNBytes(template.wireLength());
                ByteBuffer req = ByteBuffer.wrap(request);
                assertEquals(Framed.requestFrameLength(3), req.getInt());
                assertEquals(3, req.getInt());
                assertEquals(7, req.getLong());
                byte[] response = ByteBuffer.allocate(Framed.RESPONSE_HEADER + 3).putInt(Framed.RESPONSE_FIXED + 3)
                        .putLong(7).put((byte) 0).put(request, Framed.REQUEST_HEADER, 3).array();
                // one byte at a time: the decoder must keep partial frames
                for (byte b : response) {
                    peer.getOutputStream().write(b);
                    peer.getOutputStream().flush();
                }
                assertEquals(7L, recorder.responses.poll(10, TimeUnit.SECONDS));
            }
            assertTrue(recorder.closed.await(10, TimeUnit.SECONDS));
        }
        assertOnceAfterClose(recorder);
        assertTrue(recorder.errors.isEmpty(), () -> "errors " + recorder.errors);
    }

    @Test
    void closeStopsEveryThread() throws Exception {
        Set<Thread> before = TransportTesting.threadsNamed("nbench-" + transport().name());
        Recorder recorder = new Recorder();
        try (RunningServer server = TransportTesting.startServer(netty, Protocol.FRAMED, ServerEvents.NONE)) {
            ClientTransport client = TransportTesting.newClient(transport(), Protocol.FRAMED, false);
            ClientConnection c = client.connect(server.address(), RequestTemplate.framed(10, 10, 1), recorder);
            c.send(3);
            assertEquals(3L, recorder.responses.poll(10, TimeUnit.SECONDS));
            client.close();
            assertOnceAfterClose(recorder);
        }
        assertEquals(Set.of(), TransportTesting.newThreadsNamed("nbench-" + transport().name(), before));
    }

    /** Records a connection's events for assertions. */
    static final class Recorder implements ConnectionHandler {
        final BlockingQueue<Long> responses = new ArrayBlockingQueue<>(100);
        final BlockingQueue<Long> written = new ArrayBlockingQueue<>(100);
        final BlockingQueue<ErrorKind> errors = new ArrayBlockingQueue<>(100);
        final AtomicInteger closes = new AtomicInteger();
        final CountDownLatch closed = new CountDownLatch(1);

        @Override
        public void onResponse(long id, int status, PayloadView payload) {
            responses.add(id);
        }

        @Override
        public void onWritten(long id) {
            written.add(id);
        }

        @Override
        public void onError(ErrorKind kind, String message) {
            errors.add(kind);
        }

        @Override
        public void onClosed() {
            closes.incrementAndGet();
            closed.countDown();
        }
    }
}
