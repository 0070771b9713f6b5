package io.nbench.cli;

import io.nbench.client.ExitCode;
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
                "--threads", "1", "--iteration-time", "300ms", "--warmup", "1", "--iterations", "1", "--start-at", at.toString(),
                "--host-label", "client-" + name, "--out", dir.resolve(name + ".json").toString()));
    }

    @Test
    void twoClientsStartedApartStartMeasuringTogether() throws Exception {
        Instant at = Instant.now().plus(Duration.ofMillis(3000)).truncatedTo(ChronoUnit.MILLIS);
        CompletableFuture<CliTest.Outcome> first = client("a", at);
        CliTest.Outcome b = client("b", at).get(); // the second starts later, while the first waits
        CliTest.Outcome a = first.get();
        assertEquals(ExitCode.OK, a.code(), a.err());
        assertEquals(ExitCode.OK, b.code(), b.err());
        JsonNode docA = ResultDocs.read(dir.resolve("a.json"));
        JsonNode docB = ResultDocs.read(dir.resolve("b.json"));
        // startTime is the warmup's start: one 300 ms warmup iteration before the instant, so the measured one
        // starts on it.
        Instant warmup = at.minusMillis(300);
        Instant startA = Instant.parse(start(docA));
        Instant startB = Instant.parse(start(docB));
        assertFalse(startA.isBefore(warmup), startA + " before " + warmup);
        assertFalse(startB.isBefore(warmup), startB + " before " + warmup);
        assertEquals("client-a", docA.path("environment").path("host").asText(), "--host-label names the host");
        assertEquals("client-b", docB.path("environment").path("host").asText());
        // Both were launched well before the instant (the second while the first waited): without the option
        // each would have started measuring at once, before it.
    }

    private static String start(JsonNode doc) {
        return doc.path("combinations").get(0).path("startTime").asText();
    }

    @Test
    void aPastOrMalformedInstantIsAUsageError() {
        CliTest.Outcome past = CliTest.run("client", "--start-at", "2020-01-01T00:00:00Z", "--iteration-time", "1s");
        assertEquals(ExitCode.USAGE, past.code());
        assertEquals("nbench: --start-at 2020-01-01T00:00:00Z leaves no time for connecting and the warmup (3 x 1 s): "
                + "give a later instant (see 'nbench client --help')", past.err().strip());
        CliTest.Outcome bad = CliTest.run("client", "--start-at", "10:00");
        assertEquals(ExitCode.USAGE, bad.code());
        assertTrue(bad.err().contains("'10:00' is neither an ISO-8601 time with its offset nor +DURATION"), bad.err());
        CliTest.Outcome counted = CliTest.run("client", "--start-at", "+1m");
        assertEquals(ExitCode.USAGE, counted.code());
        assertTrue(counted.err().contains("--start-at needs --iteration-time"), counted.err());
        CliTest.Outcome tooSoon = CliTest.run("client", "--start-at", "+2s", "--iteration-time", "1s", "--warmup", "3");
        assertEquals(ExitCode.USAGE, tooSoon.code());
        assertTrue(tooSoon.err().contains("leaves no time for connecting and the warmup (3 x 1 s)"), tooSoon.err());
        CliTest.Outcome forks = CliTest.run("client", "--start-at", "+1m", "--iteration-time", "1s", "--forks", "2");
        assertEquals(ExitCode.USAGE, forks.code());
        assertEquals(1, forks.err().strip().lines().count(), forks.err());
    }
}
