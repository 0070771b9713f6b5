package io.nbench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.protocol.Protocol;
import io.nbench.stats.IterationResult;
import io.nbench.stats.Percentiles;
import io.nbench.testkit.Runs;
import io.nbench.testkit.ScriptedServer;
import io.nbench.testkit.ScriptedServer.Action;
import io.nbench.testkit.TestServers;
import io.nbench.testkit.Transports;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The open loop on real sockets: coordinated-omission correction on a controlled stall, and pacing. */
class OpenLoopTest {

    static final long MS = 1_000_000L;

    static Stream<String> clients() {
        return Transports.network().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clients")
    void correctedLatencyShowsAServerStallThatUncorrectedHides(String client) throws Exception {
        // 1000 msg/s on one connection with one message in flight (as wrk2 does); the server pauses
        // 300 ms at request 300. About 300 messages were due during the pause.
        try (ScriptedServer server = new ScriptedServer(i -> i == 300 ? Action.PAUSE_300MS : Action.ANSWER)) {
            Runs.Workload w = Runs.workload().threads(1).connections(1).msgs(1000).warmup(0).iterations(1)
                    .size(64).rate(1000).maxInflight(1);
            RunResult r = w.run(client, server.address());
            assertEquals(0, r.errors().total(), () -> r.errors().nonZero().toString());
            IterationResult it = r.iterations().get(0);
            assertEquals(1000, it.messages());
            Histogram corrected = it.latency();
            Histogram uncorrected = it.openLoop().uncorrected();

            assertTrue(Percentiles.valueAt(corrected, 100) >= 300 * MS, "corrected max covers the pause");
            // About 300 of 1000 messages were due during the pause; more wait while the client catches up
            // (one in flight: one round trip each), how many depends on the machine's round trip.
            double delayed = fractionAbove(corrected, 20 * MS);
            assertTrue(delayed > 0.25 && delayed < 0.9,
                    "at least the messages due during the pause waited (corrected): " + delayed);
            long correctedP90 = Percentiles.valueAt(corrected, 90);
            assertTrue(correctedP90 >= 50 * MS, "corrected p90 reflects the pause: " + correctedP90 / MS + " ms");

            // Uncorrected, only the stalled request itself waited: relative bounds, so a busy machine's own
            // hiccups do not decide the test.
            double uncorrectedDelayed = fractionAbove(uncorrected, 20 * MS);
            assertTrue(uncorrectedDelayed < delayed / 5, "uncorrected latency hides the pause: " + uncorrectedDelayed
                    + " of messages above 20 ms against " + delayed + " corrected");
            long uncorrectedP90 = Percentiles.valueAt(uncorrected, 90);
            assertTrue(uncorrectedP90 < correctedP90 / 5, "uncorrected p90 looks fine: " + uncorrectedP90 / 1000
                    + " µs against " + correctedP90 / 1000 + " µs corrected");
            assertTrue(it.openLoop().maxInflightHits() > 100, "messages waited for the in-flight cap");
            assertTrue(Percentiles.valueAt(it.openLoop().sendLag(), 100) >= 250 * MS, "the send lag shows the wait");
        }
    }

    private static double fractionAbove(Histogram h, long value) {
        return (double) (h.getTotalCount() - h.getCountBetweenValues(0, value)) / h.getTotalCount();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clients")
    void aModestRateIsHeld(String client) {
        // 600 messages at 2000/s over 2 connections: the schedule alone takes 0.3 s, so a pacer that
        // does not pace finishes much sooner. How fast a real thread keeps the schedule depends on the
        // machine, so the rate itself is pinned exactly on an injected clock by
        // OpenLoopScheduleTest#twoThousandPerSecondOverTwoConnectionsIsExact (same schedules and spread);
        // here the wall time must be explained by that schedule and the latency the run itself reports:
        // the last message is due 299.5 ms after the schedule starts and completes at most its corrected
        // latency (p100) later. The one term the run does not report is how long the pacer thread took to
        // wake for the iteration, allowed 1 s; a schedule paced at a tenth of its rate would need 2.7 s more.
        Runs.Workload w = Runs.workload().threads(2).connections(2).msgs(300).warmup(0).iterations(1).rate(2000);
        RunResult r = w.run(client, TestServers.get("netty", Protocol.FRAMED).address());
        IterationResult it = r.iterations().get(0);
        assertEquals(600, it.messages());
        assertEquals(600, it.openLoop().sent());
        assertEquals(0, r.errors().total());
        assertTrue(it.wallNanos() >= 299 * MS, "paced, not flooded: " + it.wallNanos() / MS + " ms");
        long scheduleAndLatency = 299 * MS + MS / 2 + it.percentile(100);
        assertTrue(it.wallNanos() <= scheduleAndLatency + 1_000 * MS,
                "the wall time is the schedule plus reported latency: " + it.wallNanos() / MS + " ms");
    }
}
