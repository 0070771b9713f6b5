package io.nbench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.protocol.Protocol;
import io.nbench.server.ServerMetrics;
import io.nbench.testkit.Runs;
import io.nbench.testkit.TestServers;
import io.nbench.testkit.Transports;
import io.nbench.transport.RunningServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Batches, connection churn and ramp-up, through every client transport. */
class ClosedLoopShapesTest {

    static Stream<String> clients() {
        return Transports.network().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clients")
    void batchesOfManyThreadsOverFewConnections(String client) {
        Runs.Workload w = Runs.workload().threads(8).connections(2).msgs(160).batch(80).window(320)
                .driver(Driver.THREADS).size(101).responseSize(17);
        RunResult r = w.run(client, TestServers.get("netty", Protocol.FRAMED).address());
        assertEquals(0, r.errors().total(), () -> r.errors().nonZero() + " " + r.firstErrors());
        assertEquals(w.expectedMessages(), r.summary().messages());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clients")
    void batchOfOneIsASynchronousCallPerThread(String client) {
        // several threads over one connection, each waiting for its own reply.
        Runs.Workload w = Runs.workload().threads(4).connections(1).msgs(100).batch(1).window(4).driver(Driver.THREADS);
        RunResult r = w.run(client, TestServers.get("netty", Protocol.FRAMED).address());
        assertEquals(0, r.errors().total(), () -> r.errors().nonZero() + " " + r.firstErrors());
        assertEquals(w.expectedMessages(), r.summary().messages());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clients")
    void reconnectAfterEveryRequestLikeAbWithoutKeepAlive(String client) {
        ServerMetrics metrics = new ServerMetrics(new PrintWriter(new StringWriter()));
        try (RunningServer server = TestServers.start("netty", Protocol.FRAMED, metrics)) {
            Runs.Workload w = Runs.workload().threads(2).connections(4).msgs(30).warmup(0).iterations(2)
                    .driver(Driver.THREADS).requestsPerConnection(1).connectRate(1000);
            RunResult r = w.run(client, server.address());
            assertEquals(0, r.errors().total(), () -> r.errors().nonZero() + " " + r.firstErrors());
            assertEquals(w.expectedMessages(), r.summary().messages());
            long reconnects = r.iterations().stream().mapToLong(i -> i.connectLatency().getTotalCount()).sum();
            // 120 messages, one per connection: every message after a connection's first needs a reconnect.
            assertTrue(reconnects >= w.expectedMessages() - 4, "reconnects: " + reconnects);
            assertTrue(metrics.totalConnections() >= w.expectedMessages(), "server saw " + metrics.totalConnections());
        }
    }
}
