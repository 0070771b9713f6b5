package io.nbench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nbench.client.monitor.MonitorClient;
import io.nbench.monitor.MonitorToken;
import io.nbench.protocol.Protocol;
import io.nbench.protocol.RequestTemplate;
import io.nbench.server.metrics.Counters;
import io.nbench.testkit.ServerProcess;
import io.nbench.testkit.TestServers;
import io.nbench.testkit.Transports;
import io.nbench.transport.BusinessPool;
import io.nbench.transport.RunningServer;
import io.nbench.transport.ServerRuntime;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every request a server received is accounted for, while it runs and in the report a SIGTERM prints:
 * answered, rejected or dropped at shutdown, and its bytes counted as read when it was read, not when it
 * was answered. A real server process per network transport, its business pool (or --work-mode delay's
 * timer) holding requests whose work outlasts the test, stopped with a real SIGTERM.
 */
class ShutdownAccountingTest {

    private static final String TOKEN = "shutdown-accounting";
    private static final int CONNECTIONS = 4;
    private static final int PER_CONNECTION = 50;
    private static final int PAYLOAD = 1024;

    /**
     * Each network transport with requests held by the business pool: two pool threads whose work (60 s,
     * interrupted by the stop) outlasts the test, so 2 requests are being worked on and the rest wait in the
     * queue; and held by --work-mode delay's timer an hour away, with no thread holding any.
     */
    static Stream<Arguments> servers() {
        List<String> pool = List.of("--executor-threads", "2", "--executor-queue", "1000", "--work", "60s");
        List<String> delay = List.of("--work", "1h", "--work-mode", "delay");
        return Stream.of(pool, delay).flatMap(held -> Transports.network().stream().map(impl -> Arguments.of(impl, held)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("servers")
    @EnabledOnOs({OS.LINUX, OS.MAC})
    void everyRequestReceivedIsAnsweredRejectedOrDroppedAtShutdown(String impl, List<String> held) throws Exception {
        // Nothing is answered when a peer leaves and when SIGTERM comes: every request is held (see servers()).
        List<String> args = new ArrayList<>(List.of("--impl", impl, "--port", "0", "--monitor-port", "0"));
        args.addAll(held);
        try (ServerProcess server = ServerProcess.start(Map.of(MonitorToken.ENV, TOKEN), args.toArray(String[]::new))) {
            RequestTemplate request = RequestTemplate.framed(PAYLOAD, PAYLOAD, 1);
            int sent = CONNECTIONS * PER_CONNECTION;
            long sentBytes = (long) sent * request.encode(0).length;
            List<Socket> peers = new ArrayList<>();
            try {
                long id = 1;
                for (int c = 0; c < CONNECTIONS; c++) {
                    Socket s = new Socket("127.0.0.1", server.port);
                    peers.add(s);
                    OutputStream out = s.getOutputStream();
                    for (int i = 0; i < PER_CONNECTION; i++) {
                        out.write(request.encode(id++));
                    }
                    out.flush();
                }
                // While it runs, the monitor's bytes in counts what was read, answered or not.
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                JsonNode metrics = metrics(server);
                while (metrics.at("/sinceStart/bytesIn").asLong() != sentBytes && System.nanoTime() < deadline) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50)); // awaiting the server's reads
                    metrics = metrics(server);
                }
                assertEquals(sentBytes, metrics.at("/sinceStart/bytesIn").asLong(), "bytes in while running: "
                        + metrics.get("sinceStart"));
                assertEquals(sent, metrics.at("/sinceStart/received").asLong(), metrics.toString());
                assertEquals(0, metrics.at("/sinceStart/requests").asLong(), "nothing answered yet: " + metrics);
                assertEquals(sent, metrics.at("/inProgress").asLong(), metrics.toString());

                // A peer that goes away: its requests, queued, being worked on or delayed, are dropped on close.
                peers.get(0).close();
                while (metrics.at("/sinceStart/dropped").asLong() != PER_CONNECTION && System.nanoTime() < deadline) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50)); // awaiting the server's close
                    metrics = metrics(server);
                }
                assertEquals(PER_CONNECTION, metrics.at("/sinceStart/dropped").asLong(), metrics.toString());
                assertEquals(sent - PER_CONNECTION, metrics.at("/inProgress").asLong(), metrics.toString());

                Process kill = new ProcessBuilder("kill", "-TERM", Long.toString(server.pid())).inheritIO().start();
                assertEquals(0, kill.waitFor());
                assertEquals(0, server.waitFor(), "exit code after SIGTERM; stderr: " + server.stderr());
                String first = server.awaitLine(l -> l.startsWith("server metrics after "));
                assertTrue(first.contains(String.format(Locale.ROOT, "bytes in %,d,", sentBytes)), first);
                String accounts = server.awaitLine(l -> l.startsWith("  requests received "));
                Matcher m = Pattern.compile("  requests received ([\\d,]+): answered ([\\d,]+), rejected ([\\d,]+), "
                        + "dropped at shutdown ([\\d,]+), dropped on close ([\\d,]+), in progress ([\\d,]+)")
                        .matcher(accounts);
                assertTrue(m.matches(), accounts);
                long[] n = new long[6];
                for (int i = 0; i < n.length; i++) {
                    n[i] = Long.parseLong(m.group(i + 1).replace(",", ""));
                }
                assertEquals(sent, n[0], "received: " + accounts);
                assertEquals(0, n[1], "answered: " + accounts);
                assertEquals(sent, n[1] + n[2] + n[3] + n[4], "each received request in exactly one place: " + accounts);
                assertEquals(sent - PER_CONNECTION, n[3], "dropped at shutdown: " + accounts);
                assertEquals(PER_CONNECTION, n[4], "dropped on close: " + accounts);
                assertEquals(0, n[5], "nothing left in progress after the stop: " + accounts);
                assertEquals("", server.stderr());
            } finally {
                for (Socket s : peers) {
                    s.close();
                }
            }
        }
    }

    /** Each network transport with its work on the I/O thread, and Netty and MINA with it on their own executor. */
    static Stream<Arguments> workingThreads() {
        return Stream.concat(Transports.network().stream().map(impl -> Arguments.of(impl, Map.of())),
                Stream.of(Arguments.of("netty", Map.of("netty.executor", "1")),
                        Arguments.of("mina", Map.of("mina.executor", "1"))));
    }

    /**
     * The request an I/O thread ({@code --work} without a pool) or a framework's own executor is working on when
     * the server stops is in the report too: received when decoded, so in progress while its work goes on, then
     * answered or dropped at shutdown, never missing nor answered before its work. Its work is held by the test
     * until the stop has begun (a real transport, real socket and the server's real metrics; the work is the one
     * thing simulated, to hold it as long as needed).
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("workingThreads")
    void theRequestBeingWorkedOnWhenTheServerStopsIsAccountedFor(String impl, Map<String, String> options)
            throws Exception {
        CountDownLatch working = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ServerRuntime heldWork = new ServerRuntime() {
            @Override
            public void work() {
                working.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt(); // a stop that interrupts the work ends it
                }
            }

            @Override
            public boolean hasWork() {
                return true;
            }

            @Override
            public BusinessPool pool() {
                return null;
            }
        };
        ServerMetrics metrics = new ServerMetrics(new PrintWriter(new StringWriter()));
        RunningServer server = TestServers.start(impl, Protocol.FRAMED, metrics, options, heldWork);
        Thread stop = new Thread(server::close, "stop-" + impl);
        try (Socket peer = new Socket("127.0.0.1", server.address().getPort())) {
            RequestTemplate request = RequestTemplate.framed(PAYLOAD, PAYLOAD, 1);
            peer.getOutputStream().write(request.encode(1));
            peer.getOutputStream().flush();
            assertTrue(working.await(30, TimeUnit.SECONDS), "the request reached its work");

            Counters whileWorking = metrics.snapshot().sinceStart();
            assertEquals(1, whileWorking.received(), "received while its work goes on: " + whileWorking);
            assertEquals(1, whileWorking.inProgress(), whileWorking.toString());

            metrics.stopping();
            stop.start(); // waits for the I/O thread, or closes the connection under it
        } finally {
            release.countDown();
            stop.join(TimeUnit.SECONDS.toMillis(60));
            if (stop.getState() == Thread.State.NEW) {
                server.close();
            }
        }
        assertTrue(!stop.isAlive(), "the server stopped");
        Counters end = metrics.snapshot().sinceStart();
        assertEquals(1, end.received(), end.toString());
        assertEquals(1, end.requests() + end.droppedAtShutdown(), "answered or dropped at shutdown: " + end);
        assertEquals(0, end.inProgress(), end.toString());
    }

    private static JsonNode metrics(ServerProcess server) throws Exception {
        try (MonitorClient c = MonitorClient.connect("127.0.0.1", server.monitorPort,
                MonitorToken.from(null, Map.of(MonitorToken.ENV, TOKEN)), Duration.ofSeconds(30))) {
            return new ObjectMapper().readTree(c.metricsJson());
        }
    }
}
