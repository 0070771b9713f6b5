package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nbench.client.ExitCode;
import io.nbench.client.monitor.MonitorClient;
import io.nbench.monitor.MonitorToken;
import io.nbench.testkit.ResultDocs;
import io.nbench.testkit.ServerProcess;
import io.nbench.testkit.Transports;
import io.nbench.transport.RunningServer;
import io.nbench.transport.TransportTesting;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The server's business runtime as users meet it: the client sees the work and the rejections. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ServerWorkTest {

    /**
     * A pool of one thread with a queue of one, 20 ms per request, and a client keeping 8 requests in
     * flight on one connection: most find the pool full. The client counts each 'rejected' answer as an
     * error of that class, and the server counts the same number.
     */
    @Test
    void rejectionsAreCountedAlikeByClientAndServer() throws Exception {
        TransportTesting.CountingEvents events = new TransportTesting.CountingEvents();
        try (RunningServer server = TransportTesting.startWithWork(Transports.get("netty"), Duration.ofMillis(20), 1, 1,
                events)) {
            CliTest.Outcome o = CliTest.run("client", "--port", Integer.toString(server.address().getPort()),
                    "--threads", "1", "--connections", "1", "--window", "8", "--msgs", "40", "--warmup", "0",
                    "--iterations", "1", "--size", "16", "--max-errors", "100%", "--format", "json");
            JsonNode summary = ResultDocs.read(o.out()).get("summary");
            long rejected = summary.get("errors").get("rejected").asLong();
            assertTrue(rejected > 0 && summary.get("messages").asLong() > 0, o.out() + o.err());
            assertEquals(40, rejected + summary.get("messages").asLong(), "every request answered: " + summary);
            assertTrue(events.rejected.tryAcquire((int) rejected, 5, TimeUnit.SECONDS), "server counted fewer");
            assertEquals(0, events.rejected.availablePermits(), "server counted more");
        }
    }

    /**
     * {@code nbench server --work 300ms --work-mode delay} as a child JVM, 100 connections with a request each in
     * flight: the client's median and the server's processing median are at least the delay, every request is
     * answered, and the server's start line says no thread waits. The figures are counts and lower bounds only:
     * nothing is timed against the clock of a busy machine (the contract tests show no thread is held).
     */
    @Test
    void delayCompletesEveryResponseAfterItsDelay() throws Exception {
        long delay = TimeUnit.MILLISECONDS.toNanos(300);
        try (ServerProcess server = ServerProcess.withMonitor("delay-test", "--work", "300ms", "--work-mode", "delay",
                "--duration", "60s")) {
            assertTrue(server.firstLine.contains("work 300 ms delay, completed by a timer (no thread waits)"),
                    server.firstLine);
            CliTest.Outcome o = CliTest.run("client", "--port", Integer.toString(server.port), "--threads", "1",
                    "--connections", "100", "--msgs", "300", "--warmup", "0", "--iterations", "1", "--format", "json");
            assertEquals(ExitCode.OK, o.code(), o.err());
            JsonNode summary = ResultDocs.read(o.out()).get("summary");
            assertEquals(300, summary.get("messages").asLong(), summary.toString());
            assertTrue(summary.get("latencyNs").get("merged").get("p50").asLong() >= delay, summary.toString());
            JsonNode metrics;
            try (MonitorClient c = MonitorClient.connect("127.0.0.1", server.monitorPort,
                    MonitorToken.from(null, Map.of(MonitorToken.ENV, "delay-test")), Duration.ofSeconds(30))) {
                metrics = new ObjectMapper().readTree(c.metricsJson());
            }
            JsonNode since = metrics.get("sinceStart");
            assertEquals(300, since.get("received").asLong(), since.toString());
            assertEquals(300, since.get("requests").asLong(), "every request answered: " + since);
            assertTrue(since.at("/processingNanos/p50").asLong() >= delay, since.toString());
            assertEquals(0, since.at("/queueWaitNanos/count").asLong(), "no pool: " + since);
        }
    }

    /** {@code nbench server --work 10ms} (sleep, on the I/O thread) as a child JVM: the client's median is >= 10 ms. */
    @Test
    void tenMillisecondsOfWorkShowInTheClientsMedian() throws Exception {
        try (ServerProcess server = ServerProcess.start(Map.of(), "--impl", "nio", "--port", "0", "--work", "10ms",
                "--work-mode", "sleep", "--duration", "60s")) {
            assertTrue(server.firstLine.contains("work 10 ms sleep on the I/O thread"), server.firstLine);
            CliTest.Outcome o = CliTest.run("client", "--port", Integer.toString(server.port), "--threads", "2",
                    "--msgs", "15", "--warmup", "0", "--iterations", "1", "--format", "json");
            assertEquals(ExitCode.OK, o.code(), o.err());
            long p50 = ResultDocs.read(o.out()).get("summary").get("latencyNs").get("merged").get("p50").asLong();
            assertTrue(p50 >= TimeUnit.MILLISECONDS.toNanos(10), "p50 " + p50 + " ns");
        }
    }
}
