package io.nbench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.protocol.Protocol;
import io.nbench.testkit.Runs;
import io.nbench.testkit.ScriptedEchoServer;
import io.nbench.testkit.Transports;
import io.nbench.transport.ErrorKind;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Echo messages under eight bytes carry no id and are matched first-in first-out. A reply held past the
 * timeout must not shift every later reply onto the wrong message: the connection is reopened and the run goes on.
 */
class FifoEchoTimeoutTest {

    private static final long HOLD = TimeUnit.MILLISECONDS.toNanos(20);

    static Stream<Arguments> clientsAndDrivers() {
        return Transports.network().stream()
                .flatMap(c -> Stream.of(Arguments.of(c, Driver.IO), Arguments.of(c, Driver.THREADS)));
    }

    /**
     * Loads and compiles each client transport's echo path first: on this shared 2-core machine the first
     * response of a cold transport can take longer than the short timeout below, which would then be a
     * real timeout (and a silent server), not the one the test is about.
     */
    @BeforeAll
    static void warmUp() {
        Runs.warmUpClients(Protocol.ECHO);
    }

    /**
     * The peer echoes every message exactly 20 ms after it arrived, except the sixth of its first
     * connection, which it holds 2.5 s (the timeout is 1 s: long, because this machine's load can hold a thread for hundreds of ms) (and everything behind it, as an echo stream must). A reply can
     * therefore never come back sooner than 20 ms after its own message was sent: a recorded round trip
     * under that is a reply credited to a later message. Before the fix about half of them were.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("clientsAndDrivers")
    void aReplyHeldPastTheTimeoutReopensTheConnectionInsteadOfShiftingEveryLaterReply(String client, Driver driver)
            throws Exception {
        try (ScriptedEchoServer server = new ScriptedEchoServer(4,
                (connection, message) -> connection == 0 && message == 5 ? TimeUnit.MILLISECONDS.toNanos(2500) : HOLD)) {
            RunResult r = Runs.workload().protocol(Protocol.ECHO).size(4).threads(2).connections(2).window(2)
                    .driver(driver).warmup(0).iterations(1).iterationTime(Duration.ofMillis(3000))
                    .timeout(Duration.ofSeconds(1)).run(client, server.address());
            assertNull(r.abortReason(), r.abortReason());
            long fastest = r.summary().merged().getMinValue();
            assertTrue(fastest >= HOLD * 99 / 100, "a reply credited to a later message: round trip of "
                    + fastest / 1000 + " µs, under the peer's " + HOLD / 1000 + " µs hold");
            assertEquals(1, r.reconnects(), () -> "the connection whose reply was held is reopened once: "
                    + r.errors().nonZero() + " " + r.firstErrors());
            assertEquals(3, server.connections());
            assertEquals(2, r.errors().get(ErrorKind.TIMEOUT), "the held message and the one in flight behind it");
            assertEquals(2, r.errors().total(), () -> r.errors().nonZero().toString());
            assertTrue(r.summary().messages() > 20, "the run went on: " + r.summary().messages());
        }
    }
}
