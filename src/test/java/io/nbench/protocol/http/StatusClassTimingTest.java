package io.nbench.protocol.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.testkit.NbenchProcess;
import io.nbench.testkit.ResultDocs;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntUnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every HTTP response is timed, whatever its status, and reported per status class; {@code --success-status} says
 * which statuses are successes (default 2xx), the others being errors of kind {@code status}. One scripted server
 * for the class: its answer to the n-th request (counted over the whole server) is what {@link #script} says, and
 * it counts what it sent by status, so the expected figures come from the server, not from nbench.
 */
class StatusClassTimingTest {

    private static ServerSocket server;
    /** The status of the n-th response (0-based, over every connection); replaced by each test. */
    private static volatile IntUnaryOperator script = n -> 200;
    /** Requests answered so far, over every connection: the n of {@link #script}. */
    private static final AtomicInteger answered = new AtomicInteger();
    /** What the server sent, by status code. */
    private static final Map<Integer, AtomicInteger> sent = new ConcurrentHashMap<>();

    @TempDir
    Path dir;

    @BeforeAll
    static void start() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread t = new Thread(StatusClassTimingTest::serve, "scripted-statuses");
        t.setDaemon(true);
        t.start();
    }

    @AfterAll
    static void stop() throws IOException {
        server.close();
    }

    private static void script(IntUnaryOperator s) {
        answered.set(0);
        sent.clear();
        script = s;
    }

    private static Map<Integer, Integer> sentByCode() {
        Map<Integer, Integer> m = new TreeMap<>();
        sent.forEach((code, n) -> m.put(code, n.get()));
        return m;
    }

    private String url() {
        return "http://127.0.0.1:" + server.getLocalPort() + "/";
    }

    /**
     * 200, 301, 404, 503 in turn, 2xx and 404 successes: every response is timed (the iteration's messages are
     * all 40 responses), each class's count in the document equals what the server sent of it, the 301s and 503s
     * are the errors (of kind status), and the iteration line names them by code.
     */
    @Test
    void everyResponseIsTimedAndCountedByItsClass() throws Exception {
        int[] cycle = {200, 301, 404, 503};
        script(n -> cycle[n % cycle.length]);
        NbenchProcess.Result r = NbenchProcess.run(dir, "022", "client", "--impl", "nio", "--threads", "1",
                "--msgs", "40", "--warmup", "0", "--iterations", "1", "--max-errors", "100%",
                "--success-status", "2xx,404", "--out", "r.json", "--url", url());
        Map<Integer, Integer> bySender = sentByCode();
        assertEquals(Map.of(200, 10, 301, 10, 404, 10, 503, 10), bySender, r.all());
        assertEquals(0, r.exit(), r.all());
        assertTrue(r.out().contains("errors 20 (status 301 x10 503 x10)"), r.out());
        JsonNode it = ResultDocs.read(dir.resolve("r.json")).path("combinations").path(0).path("iterations").path(0);
        assertEquals(40, it.path("messages").asLong(), it.toString());
        assertEquals(20, it.path("errors").path("status").asLong(), it.toString());
        JsonNode byClass = it.path("latencyByStatusClass");
        assertEquals(10, byClass.path("2xx").path("count").asLong(), byClass.toString());
        assertEquals(10, byClass.path("3xx").path("count").asLong(), byClass.toString());
        assertEquals(10, byClass.path("4xx").path("count").asLong(), byClass.toString());
        assertEquals(10, byClass.path("5xx").path("count").asLong(), byClass.toString());
        assertTrue(byClass.path("5xx").path("latencyNs").path("p50").asLong() > 0, byClass.toString());
    }

    /**
     * A redirect-only endpoint with the default --success-status: a 3xx is not a success, so every response is a
     * status error (timed, in the 3xx class) and the run FAILs, exit 4; with 2xx,3xx it passes.
     */
    @Test
    void aRedirectIsAnErrorUnlessSaidToBeASuccess() throws Exception {
        script(n -> 301);
        NbenchProcess.Result r = NbenchProcess.run(dir, "022", "client", "--impl", "nio", "--threads", "1",
                "--msgs", "10", "--warmup", "0", "--iterations", "1", "--out", "r.json", "--url", url());
        assertEquals(Map.of(301, 10), sentByCode(), r.all());
        assertEquals(4, r.exit(), r.all());
        assertTrue(r.out().contains("\nResult: FAIL"), r.out());
        JsonNode it = ResultDocs.read(dir.resolve("r.json")).path("combinations").path(0).path("iterations").path(0);
        assertEquals(10, it.path("errors").path("status").asLong(), it.toString());
        assertEquals(10, it.path("latencyByStatusClass").path("3xx").path("count").asLong(), it.toString());

        script(n -> 301);
        NbenchProcess.Result ok = NbenchProcess.run(dir, "022", "client", "--impl", "nio", "--threads", "1",
                "--msgs", "10", "--warmup", "0", "--iterations", "1", "--success-status", "2xx,3xx", "--url", url());
        assertEquals(0, ok.exit(), ok.all());
        assertTrue(ok.out().contains("Errors: 0"), ok.out());
    }

    /**
     * The warmup never counts: a server that answers the warmup's 20 requests with 200, then only 503. The measured
     * iteration has responses (all 503), so it is timed and FAILs on its status errors (exit 4), not NO_DATA; and
     * the measured iteration's 2xx class is empty (the warmup's 200s are not in it).
     */
    @Test
    void aMeasuredPhaseOfOnly503sFailsOnItsErrorsWhateverTheWarmupGot() throws Exception {
        script(n -> n < 20 ? 200 : 503);
        NbenchProcess.Result r = NbenchProcess.run(dir, "022", "client", "--impl", "nio", "--threads", "1",
                "--msgs", "20", "--warmup", "1", "--iterations", "1", "--out", "r.json", "--url", url());
        assertEquals(Map.of(200, 20, 503, 20), sentByCode(), r.all());
        assertEquals(4, r.exit(), r.all());
        assertTrue(r.out().contains("errors 20 (status 503 x20)"), r.out());
        JsonNode c = ResultDocs.read(dir.resolve("r.json")).path("combinations").path(0);
        assertEquals("FAIL", c.path("status").asText(), c.toString());
        JsonNode measured = c.path("iterations").path(1);
        assertEquals(20, measured.path("latencyByStatusClass").path("5xx").path("count").asLong(), c.toString());
        assertEquals(0, measured.path("latencyByStatusClass").path("2xx").path("count").asLong(), c.toString());
    }

    /**
     * NO_DATA is a measured phase with no response at all, whatever the warmup got: the server answers the first 5
     * requests at once (all in the 300 ms warmup), then holds the next one 1.5 s, past the measured iteration's end
     * (it comes in the drain). The measured iteration has no response: NO_DATA, exit 5; counting the warmup's 5
     * responses would make it a PASS on nothing measured.
     */
    @Test
    void aMeasuredPhaseWithNoResponseIsNoDataWhateverTheWarmupGot() throws Exception {
        script(n -> n < 5 ? 200 : -200);
        NbenchProcess.Result r = NbenchProcess.run(dir, "022", "client", "--impl", "nio", "--threads", "1",
                "--iteration-time", "300ms", "--warmup", "1", "--iterations", "1", "--timeout", "10s",
                "--url", url());
        assertEquals(Map.of(200, 6), sentByCode(), r.all());
        assertEquals(5, r.exit(), r.all());
        assertTrue(r.out().contains("\nResult: NO_DATA (exit code 5): nothing measured: "), r.out());
    }

    @Test
    void aBadSuccessStatusIsAOneLineUsageError() throws Exception {
        NbenchProcess.Result r = NbenchProcess.run(dir, "022", "client", "--success-status", "2xx,6xx",
                "--msgs", "1", "--url", url());
        assertEquals(2, r.exit(), r.all());
        assertTrue(r.err().lines().anyMatch(l -> l.contains("--success-status") && l.contains("6xx")), r.err());
    }

    /** Answers each request head with the status {@link #script} gives it (negative: that status, 1.5 s later). */
    private static void serve() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                Thread t = new Thread(() -> answer(s), "scripted-connection");
                t.setDaemon(true);
                t.start();
            } catch (IOException closed) {
                // the test ended
            }
        }
    }

    private static void answer(Socket s) {
        try (s) {
            InputStream in = s.getInputStream();
            int seen = 0;
            int b;
            while ((b = in.read()) >= 0) {
                seen = b == '\n' ? seen + 1 : b == '\r' ? seen : 0;
                if (seen == 2) {
                    seen = 0;
                    int status = script.applyAsInt(answered.getAndIncrement());
                    if (status < 0) {
                        status = -status;
                        Thread.sleep(1500);
                    }
                    sent.computeIfAbsent(status, k -> new AtomicInteger()).incrementAndGet();
                    String head = "HTTP/1.1 " + status + " X\r\n" + (status == 301 ? "Location: /x\r\n" : "")
                            + "Content-Length: 2\r\n\r\nok";
                    s.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
                    s.getOutputStream().flush();
                }
            }
        } catch (IOException closed) {
            // the client went away
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
