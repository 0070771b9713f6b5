package io.nbench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.testkit.Runs;
import io.nbench.testkit.ScriptedServer;
import io.nbench.testkit.ScriptedServer.Action;
import io.nbench.testkit.Transports;
import io.nbench.transport.ErrorKind;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** How every client transport and both drivers cope with a server that misbehaves. */
class FailureModesTest {

    static Stream<String> clients() {
        return Transports.network().stream();
    }

    private static Runs.Workload small() {
        return Runs.workload().threads(2).connections(2).msgs(5).warmup(0).iterations(1).size(64);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clients")
    void silentServerTimesOutEveryMessageAndNeverHangs(String client) throws Exception {
        try (ScriptedServer server = new ScriptedServer(i -> Action.SILENT)) {
            for (Driver driver : Driver.values()) {
                RunResult r = small().msgs(3).driver(driver).timeout(Duration.ofMillis(150)).run(client, server.address());
                assertEquals(6, r.errors().get(ErrorKind.TIMEOUT), driver + ": every message timed out");
                assertEquals(0, r.summary().messages());
                assertNull(r.abortReason());
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clients")
    void lateResponseIsCountedNeverCreditedToAnotherMessage(String client) throws Exception {
        // The first request is answered 900 ms late, out of order; the others at once. The run lasts
        // 2 s, so the late answer arrives while the connection is still in use.
        try (ScriptedServer server = new ScriptedServer(i -> i == 0 ? Action.LATE_900MS : Action.ANSWER)) {
            RunResult r = small().threads(1).connections(1).msgs(0).iterationTime(Duration.ofMillis(2000))
                    .timeout(Duration.ofMillis(300)).run(client, server.address());
            assertEquals(1, r.errors().get(ErrorKind.TIMEOUT), () -> r.errors().nonZero().toString());
            assertEquals(1, r.lateResponses(), "the first response arrived after its timeout");
            // Answers completed after the last time boundary are drained, not counted in an iteration.
            long others = server.requests() - 1;
            long credited = r.summary().messages();
            assertTrue(credited > 0 && credited <= others, "no message credited twice: " + credited + " of " + others);
            assertEquals(0, r.errors().get(ErrorKind.INTEGRITY));
        }
    }

    @org.junit.jupiter.api.Test
    void anIterationLongerThanTheTimeoutIsNotMistakenForOutstandingResponses() throws Exception {
        // io driver, count-based: the I/O threads send the quota for about 2.5 s, longer than the drain's
        // grace of timeout + 2 s; the grace must run from the last send, not from the iteration start.
        try (ScriptedServer server = new ScriptedServer(i -> Action.SLOW_1MS)) {
            RunResult r = small().threads(1).connections(1).msgs(2000).driver(Driver.IO)
                    .timeout(Duration.ofMillis(150)).run("netty", server.address());
            assertNull(r.abortReason());
            assertEquals(2000, r.summary().messages());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clients")
    void rejectedAndCorruptResponsesAreCountedByClass(String client) throws Exception {
        try (ScriptedServer server = new ScriptedServer(i -> i % 5 == 1 ? Action.REJECT : i % 5 == 3 ? Action.CORRUPT : Action.ANSWER)) {
            RunResult r = small().threads(1).connections(1).msgs(10).verify(Verify.FULL).run(client, server.address());
            assertEquals(2, r.errors().get(ErrorKind.REJECTED));
            assertEquals(2, r.errors().get(ErrorKind.INTEGRITY));
            assertEquals(6, r.summary().messages());
            assertNotNull(r.firstErrors().get(ErrorKind.INTEGRITY));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clients")
    void serverDyingMidRunAbortsWithWhatWasMeasured(String client) throws Exception {
        try (ScriptedServer server = new ScriptedServer(i -> i < 20 ? Action.ANSWER : Action.CLOSE_ALL)) {
            RunResult r = small().msgs(1000).iterations(3).run(client, server.address());
            assertNotNull(r.abortReason(), () -> "the run is aborted: " + r.errors().nonZero() + " " + r.summary().messages()
                    + " " + r.iterations());
            assertTrue(r.abortReason().contains("closed by the server"), r.abortReason());
            // 20 requests were answered; an answer still in flight when the server resets the other
            // connection can be lost with it, so allow for one per connection.
            long measured = r.summary().messages();
            assertTrue(measured >= 18 && measured <= 20, "the answered messages are still reported: " + measured);
            assertTrue(r.iterations().get(r.iterations().size() - 1).partial());
        }
    }
}
