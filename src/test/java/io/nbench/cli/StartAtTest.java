package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.protocol.Protocol;
import io.nbench.testkit.ResultDocs;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --start-at}: clients started apart connect at once and begin measuring at the same instant. */
class StartAtTest {

    @TempDir
    Path dir;

    private CompletableFuture<CliTest.Outcome> client(String name, Instant at) {
        return CompletableFuture.supplyAsync(() -> CliTest.run("client", "--port", CliTest.port(Protocol.FRAMED),
                "--threads", "1", "--msgs", "100", "--warmup", "0", "--iterations", "1", "--start-at", at.toString(),
                "--out", dir.resolve(name + ".json").toString()));
    }

    @Test
    void twoClientsStartedApartStartMeasuringTogether() throws Exception {
        Instant at = Instant.now().plus(Duration.ofMillis(3000)).truncatedTo(ChronoUnit.MILLIS);
        CompletableFuture<CliTest.Outcome> first = client("a", at);
        CliTest.Outcome b = client("b", at).get(); // the second starts later, while the first waits
        CliTest.Outcome a = first.get();
        assertEquals(ExitCode.OK, a.code(), a.err());
        assertEquals(ExitCode.OK, b.code(), b.err());
        Instant startA = Instant.parse(start(ResultDocs.read(dir.resolve("a.json"))));
        Instant startB = Instant.parse(start(ResultDocs.read(dir.resolve("b.json"))));
        assertFalse(startA.isBefore(at), startA + " before " + at);
        assertFalse(startB.isBefore(at), startB + " before " + at);
        // Both were launched well before the instant (the second while the first waited): without the option
        // each would have started measuring at once, before it.
    }

    private static String start(JsonNode doc) {
        return doc.path("combinations").get(0).path("startTime").asText();
    }

    @Test
    void aPastOrMalformedInstantIsAUsageError() {
        CliTest.Outcome past = CliTest.run("client", "--start-at", "2020-01-01T00:00:00Z");
        assertEquals(ExitCode.USAGE, past.code());
        assertEquals("nbench: --start-at 2020-01-01T00:00:00Z has passed: give a later instant (see 'nbench client --help')",
                past.err().strip());
        CliTest.Outcome bad = CliTest.run("client", "--start-at", "10:00");
        assertEquals(ExitCode.USAGE, bad.code());
        assertTrue(bad.err().contains("'10:00' is not an ISO-8601 time with its offset"), bad.err());
        CliTest.Outcome forks = CliTest.run("client", "--start-at", Instant.now().plusSeconds(60).toString(), "--forks", "2");
        assertEquals(ExitCode.USAGE, forks.code());
        assertEquals(1, forks.err().strip().lines().count(), forks.err());
    }
}
