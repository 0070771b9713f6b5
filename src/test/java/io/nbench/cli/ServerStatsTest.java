package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.testkit.NbenchProcess;
import io.nbench.testkit.ResultDocs;
import io.nbench.testkit.ServerProcess;
import io.nbench.transport.Vectors;
import io.nbench.units.Units;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code nbench client --server-stats} end to end: a real server process with its monitor, the real client
 * (a child JVM, so the token comes from its environment as a user gives it), the result document validated.
 */
class ServerStatsTest {

    private static final String TOKEN = "server-stats-token";
    private static ServerProcess server;

    @BeforeAll
    static void startServer() throws Exception {
        // mina, not the clients' nio: the document must name the server's transport, not the client's
        server = ServerProcess.start(Map.of("NBENCH_MONITOR_TOKEN", TOKEN), "--impl", "mina", "--port", "0",
                "--monitor-port", "0");
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close();
    }

    @Test
    void eachMeasuredIterationHasTheServersFiguresInTextAndInTheValidDocument(@TempDir Path dir) throws Exception {
        Path token = dir.resolve("token");
        Files.writeString(token, TOKEN + "\n");
        Path json = dir.resolve("r.json");
        NbenchProcess.Result r = NbenchProcess.run(dir, "022", "client", "--impl", "nio", "--port",
                Integer.toString(server.port), "--server-stats", "--monitor-port", Integer.toString(server.monitorPort),
                "--monitor-token-file", token.toString(), "--threads", "2", "--msgs", "300", "--warmup", "1",
                "--iterations", "2", "--out", json.toString());
        assertEquals(0, r.exit(), r.all());
        assertEquals("", r.err());
        List<String> lines = r.out().lines().toList();
        for (int i = 1; i <= 2; i++) {
            int at = indexOfPrefix(lines, "Iteration " + i + "/2:");
            assertTrue(lines.get(at + 1).startsWith("  server: 600 requests, processing "), r.out());
        }
        assertEquals(2, lines.stream().filter(l -> l.startsWith("  server: ")).count(), "not under the warmup");
        JsonNode doc = ResultDocs.valid(ResultDocs.read(json));
        JsonNode stats = doc.at("/combinations/0/serverStats");
        assertEquals("127.0.0.1:" + server.monitorPort, stats.get("monitor").asText());
        // The server as its monitor names it (the client is nio), at the address the client measured
        JsonNode measured = doc.at("/configuration/server");
        assertEquals("mina", measured.path("transport").asText(), measured.toString());
        assertEquals("framed", measured.path("protocol").asText(), measured.toString());
        assertEquals("127.0.0.1:" + server.port, measured.path("address").asText(), measured.toString());
        assertEquals("monitor", measured.path("source").asText(), measured.toString());
        assertTrue(stats.get("error").isNull());
        assertEquals(2, stats.get("iterations").size());
        for (int i = 0; i < 2; i++) {
            JsonNode it = stats.get("iterations").get(i);
            assertEquals(i + 1, it.get("index").asInt());
            // Count-based iterations end when every response is in: the server served exactly what the client sent.
            assertEquals(doc.at("/combinations/0/iterations/" + (i + 1) + "/messages").asLong(), it.get("requests").asLong());
            assertEquals(0, it.get("rejected").asLong());
            assertTrue(it.get("cpuPercent").asDouble() > 0, it.toString());
            assertTrue(it.get("nanos").asLong() > 0);
        }
    }

    /**
     * The three clients run at once, each in a JVM of its own: the one pointed at the data port (a framed server
     * that sends no banner) waits out the monitor client's 10 s answer timeout, which the two others need not queue
     * behind.
     */
    @Test
    void aMonitorThatRefusesTheTokenOrCannotBeReachedIsOneLineAndExit1BeforeTheRun(@TempDir Path dir) throws Exception {
        Path token = dir.resolve("token");
        Files.writeString(token, "wrong\n");
        CompletableFuture<NbenchProcess.Result> unreachableRun = child(dir, "client", "--impl", "nio", "--port",
                Integer.toString(server.port), "--server-stats", "--monitor-port", Integer.toString(server.port),
                "--monitor-token-file", token.toString());
        CompletableFuture<NbenchProcess.Result> refusedRun = child(dir, "client", "--impl", "nio", "--port",
                Integer.toString(server.port), "--server-stats", "--monitor-port", Integer.toString(server.monitorPort),
                "--monitor-token-file", token.toString());
        CompletableFuture<NbenchProcess.Result> usageRun = child(dir, "client", "--server-stats");
        NbenchProcess.Result refused = refusedRun.get();
        assertEquals(1, refused.exit(), refused.all());
        assertEquals("", refused.out(), "nothing ran");
        assertEquals("nbench client: the monitor at 127.0.0.1:" + server.monitorPort + " refused the token from "
                + "--monitor-token-file (ERR bad token: connection closed): give the server's token through "
                + "NBENCH_MONITOR_TOKEN or --monitor-token-file", refused.err().strip());
        NbenchProcess.Result unreachable = unreachableRun.get();
        assertEquals(1, unreachable.exit(), unreachable.all());
        assertEquals(1, unreachable.err().strip().lines().count(), unreachable.err());
        assertTrue(unreachable.err().startsWith("nbench client: "), unreachable.err());
        NbenchProcess.Result usage = usageRun.get();
        assertEquals(2, usage.exit(), usage.all());
        assertTrue(usage.err().startsWith("nbench: --server-stats needs --monitor-port"), usage.err());
        assertFalse(usage.out().contains("Iteration"));
    }

    /** {@code nbench args} in a child JVM, started now on a thread of its own. */
    private static CompletableFuture<NbenchProcess.Result> child(Path dir, String... args) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return NbenchProcess.run(dir, "022", args);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }, runnable -> new Thread(runnable, "server-stats-child").start());
    }

    /**
     * {@code compare}'s "server CPU/msg" is the server's CPU time over its window divided by the requests the server
     * counted in it, which include another client's when two share the server: here a second client (two raw
     * sockets, 8 requests in flight each) loads the server all through two runs of the measured client. Each
     * file's figure is worked out from the document's own fields (the mean over measured iterations of
     * {@code cpuPercent / 100 x nanos / requests} of {@code serverStats}) and found in the printed row. Divided by
     * the client's messages instead, the row printed 25.9 µs for 11.8.
     */
    @Test
    void compareDividesTheServersCpuByTheServersRequests(@TempDir Path dir) throws Exception {
        Path token = dir.resolve("token");
        Files.writeString(token, TOKEN + "\n");
        List<Path> files = List.of(dir.resolve("a.json"), dir.resolve("b.json"));
        try (SecondClient other = new SecondClient(server.port, 2)) {
            for (Path json : files) {
                CliTest.Outcome o = CliTest.run("client", "--impl", "nio", "--port", Integer.toString(server.port),
                        "--server-stats", "--monitor-port", Integer.toString(server.monitorPort),
                        "--monitor-token-file", token.toString(), "--threads", "2", "--msgs", "300", "--warmup", "0",
                        "--iterations", "3", "--out", json.toString());
                assertEquals(0, o.code(), o.out() + o.err());
            }
            other.assertAlive();
        }
        CliTest.Outcome compared = CliTest.run("compare", files.get(0).toString(), files.get(1).toString());
        String row = compared.out().lines().filter(l -> l.strip().startsWith("server CPU/msg")).findFirst()
                .orElseThrow(() -> new AssertionError("no server CPU/msg row: " + compared.out() + compared.err()));
        int from = 0;
        for (Path json : files) {
            JsonNode doc = ResultDocs.read(json);
            double perRequest = 0;
            double perMessage = 0;
            JsonNode stats = doc.at("/combinations/0/serverStats/iterations");
            assertEquals(3, stats.size(), stats.toString());
            for (JsonNode s : stats) {
                long requests = s.get("requests").asLong();
                long messages = -1;
                for (JsonNode it : doc.at("/combinations/0/iterations")) {
                    if (it.get("index").asInt() == s.get("index").asInt()) {
                        messages = it.get("messages").asLong();
                    }
                }
                assertEquals(600, messages, "iteration " + s.get("index"));
                assertTrue(requests > messages, "the other client's requests are in the server's: " + s);
                double cpuNs = s.get("cpuPercent").asDouble() / 100.0 * s.get("nanos").asLong();
                perRequest += cpuNs / requests / stats.size();
                perMessage += cpuNs / messages / stats.size();
            }
            String expected = Units.micros(perRequest) + " µs";
            assertFalse(expected.equals(Units.micros(perMessage) + " µs"),
                    "the two divisions print alike: the test cannot tell them apart");
            int at = row.indexOf(expected, from);
            assertTrue(at >= 0, json.getFileName() + ": server CPU/msg " + expected + " (CPU time / the server's "
                    + "requests; per client message it is " + Units.micros(perMessage) + " µs) not in: "
                    + row);
            from = at + expected.length();
        }
    }

    /**
     * Another client of the shared server: {@code sockets} connections, each writing 8 framed requests at a time
     * and reading their 8 responses, until closed.
     */
    private static final class SecondClient implements AutoCloseable {
        private final List<Socket> sockets = new ArrayList<>();
        private final List<Thread> threads = new ArrayList<>();
        private final AtomicReference<Throwable> failed =
                new AtomicReference<>();
        private volatile boolean closing;

        SecondClient(int port, int count) throws Exception {
            byte[] batch = Vectors.concat(Collections.nCopies(8,
                    Vectors.REQ1).toArray(new byte[0][]));
            int answer = Vectors.RESP1.length * 8;
            CountDownLatch answering = new CountDownLatch(count);
            for (int i = 0; i < count; i++) {
                Socket s = new Socket("127.0.0.1", port);
                s.setTcpNoDelay(true);
                s.setSoTimeout(30_000);
                sockets.add(s);
                Thread t = new Thread(() -> {
                    try {
                        while (!closing) {
                            s.getOutputStream().write(batch);
                            if (s.getInputStream().readNBytes(answer).length != answer) {
                                throw new EOFException("the server closed");
                            }
                            answering.countDown();
                        }
                    } catch (Throwable e) {
                        if (!closing) {
                            failed.set(e);
                        }
                    }
                }, "second-client-" + i);
                t.setDaemon(true);
                threads.add(t);
                t.start();
            }
            assertTrue(answering.await(30, TimeUnit.SECONDS), "the second client got no answer");
        }

        void assertAlive() {
            assertTrue(failed.get() == null, "the second client failed: " + failed.get());
        }

        @Override
        public void close() throws IOException {
            closing = true;
            for (Socket s : sockets) {
                s.close();
            }
            try {
                for (Thread t : threads) {
                    t.join(30_000);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static int indexOfPrefix(List<String> lines, String prefix) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(prefix)) {
                return i;
            }
        }
        throw new AssertionError("no line starting '" + prefix + "' in " + lines);
    }
}
