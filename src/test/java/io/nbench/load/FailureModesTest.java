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
import io.nbench.protocol.Protocol;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** How every client transport and both drivers cope with a server that misbehaves. */
class FailureModesTest {

    static Stream<String> clients() {
        return Transports.network().stream();
    }

    /** Short timeouts below: a cold transport's first response must not be what times out. */
    @BeforeAll
    static void warmUp() {
        Runs.warmUpClients(Protocol.FRAMED);
    }

    private static Runs.Workload small() {
        return Runs.workload().threads(2).connections(2).msgs(5).warmup(0).iterations(1).size(64);
    }

    /** Every client transport with the threads driver, the io driver and the open loop. */
    static Stream<Arguments> clientsAndLoads() {
        return Transports.network().stream()
                .flatMap(c -> Stream.of(Arguments.of(c, "threads"), Arguments.of(c, "io"), Arguments.of(c, "rate")));
    }

    private static Runs.Workload load(Runs.Workload w, String load) {
        return switch (load) {
            case "threads" -> w.driver(Driver.THREADS);
            case "io" -> w.driver(Driver.IO);
            default -> w.rate(200);
        };
    }

    /**
     * A peer that accepts and never answers: each timeout frees a slot and the next message goes out, so
     * without a rule the run would last its full length (here 2 x 5 s) with nothing measured. It must end
     * once no connection has heard from the server for the timeout.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("clientsAndLoads")
    void aPeerThatNeverAnswersEndsTheRun(String client, String load) throws Exception {
        try (ScriptedServer server = new ScriptedServer(i -> Action.SILENT)) {
            RunResult r = load(small().warmup(0).iterations(2).iterationTime(Duration.ofSeconds(5)), load)
                    .timeout(Duration.ofMillis(300)).run(client, server.address());
            assertEquals(AbortCause.STALLED, r.abortCause(), () -> "aborted: " + r.abortReason() + " after "
                    + r.iterations().size() + " iteration(s), errors " + r.errors().nonZero());
            assertEquals(1, r.iterations().size(), "the first iteration is cut and reported");
            assertTrue(r.iterations().get(0).partial());
            assertEquals(0, r.summary().messages() + r.iterations().get(0).messages());
            long timeouts = r.errors().get(ErrorKind.TIMEOUT);
            assertTrue(timeouts >= 1 && timeouts <= server.requests(), timeouts + " timeouts of " + server.requests());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clients")
    void aCountedRunAgainstASilentPeerStopsAtTheFirstSilentTimeout(String client) throws Exception {
        try (ScriptedServer server = new ScriptedServer(i -> Action.SILENT)) {
            for (Driver driver : Driver.values()) {
                RunResult r = small().msgs(3).driver(driver).timeout(Duration.ofMillis(150)).run(client, server.address());
                assertEquals(AbortCause.STALLED, r.abortCause(), driver + ": " + r.abortReason());
                assertEquals(0, r.summary().messages());
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clients")
    void lateResponseIsCountedNeverCreditedToAnotherMessage(String client) throws Exception {
        // The first request is answered 900 ms late (past the 600 ms timeout), out of order; the others at once. The run lasts
        // 2 s, so the late answer arrives while the connection is still in use.
        try (ScriptedServer server = new ScriptedServer(i -> i == 0 ? Action.LATE_900MS : Action.ANSWER)) {
            // Two connections: the other one keeps answering, so the server is not taken for stalled while
            // the first request waits.
            RunResult r = small().threads(2).connections(2).msgs(0).iterationTime(Duration.ofMillis(2000))
                    .timeout(Duration.ofMillis(600)).run(client, server.address());
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
        // io driver, count-based: the I/O threads send the quota for at least 2.8 s (2,800 messages the
        // server answers after 1 ms each), longer than the drain's grace of timeout + 2 s = 2.4 s; the grace
        // must run from the last send, not from the iteration start. The timeout leaves a loaded machine
        // 400 ms per message.
        try (ScriptedServer server = new ScriptedServer(i -> Action.SLOW_1MS)) {
            RunResult r = small().threads(1).connections(1).msgs(2800).driver(Driver.IO)
                    .timeout(Duration.ofMillis(400)).run("netty", server.address());
            assertNull(r.abortReason());
            assertEquals(2800, r.summary().messages());
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
