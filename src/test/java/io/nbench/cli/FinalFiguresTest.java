package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.client.ExitCode;
import io.nbench.protocol.Protocol;
import io.nbench.stats.HistogramCodec;
import io.nbench.testkit.ResultDocs;
import io.nbench.testkit.Transports;
import io.nbench.transport.RunningServer;
import io.nbench.transport.TransportTesting;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A figure is final when its line is printed. A time-based run whose responses are still outstanding
 * seconds after its last boundary (a server with 400 ms of work per request, one at a time, and 8 requests
 * in flight: 3.2 s of answers still to come) prints each iteration, then drains. What the drain brings in
 * belongs to no iteration: each iteration's document figures are those its line printed, its histogram
 * holds exactly its messages, and the drain is counted on its own, so that iterations and drain together
 * hold every request the server answered.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FinalFiguresTest {

    private static final Pattern ITERATION = Pattern.compile("(?m)^Iteration (\\d)/2: +([\\d,]+) msgs");

    @TempDir
    Path dir;

    @Test
    void theDrainAddsNothingToAPrintedIteration() throws Exception {
        TransportTesting.CountingEvents events = new TransportTesting.CountingEvents();
        try (RunningServer server = TransportTesting.startWithWork(Transports.get("netty"), Duration.ofMillis(400), 1,
                100, events)) {
            Path out = dir.resolve("r.json");
            CliTest.Outcome o = CliTest.run("client", "--port", Integer.toString(server.address().getPort()),
                    "--threads", "1", "--connections", "1", "--window", "8", "--iteration-time", "1s",
                    "--warmup", "0", "--iterations", "2", "--size", "16", "--out", out.toString());
            assertEquals(ExitCode.OK, o.code(), o.out() + o.err());
            JsonNode c = ResultDocs.read(out).get("combinations").get(0);

            long inIterations = 0;
            Matcher printed = ITERATION.matcher(o.out());
            for (JsonNode it : c.get("iterations")) {
                long messages = it.get("messages").asLong();
                assertTrue(printed.find(), o.out());
                assertEquals(it.get("index").asInt(), Integer.parseInt(printed.group(1)));
                assertEquals(Long.parseLong(printed.group(2).replace(",", "")), messages,
                        "the document's messages are the printed line's: " + o.out());
                assertEquals(messages, HistogramCodec.decode(it.get("histogram").asText()).getTotalCount(),
                        "iteration " + it.get("index") + "'s histogram holds exactly its messages");
                inIterations += messages;
            }
            assertEquals(inIterations, c.get("summary").get("messages").asLong());

            JsonNode drain = c.get("drain");
            long drained = drain.get("messages").asLong();
            assertTrue(drained > 0, "8 requests were outstanding at the last boundary: " + drain);
            assertEquals(drained, HistogramCodec.decode(drain.get("histogram").asText()).getTotalCount());
            assertTrue(o.out().contains("Drain after the last iteration (in no iteration): " + drained + " msgs"),
                    o.out());

            long answered = inIterations + drained;
            assertTrue(events.processed.tryAcquire((int) answered, 10, TimeUnit.SECONDS),
                    "the server answered fewer than the client counted: " + answered);
            assertEquals(0, events.processed.availablePermits(), "a response the client never counted");
        }
    }

    /**
     * The drain's errors are the drain's own: what timed out after the last iteration's cut. Against a server that
     * answers one request per 100 ms, 32 in flight (3.2 s of work) and {@code --timeout 2s}, requests queue behind
     * those that timed out (whose late answers keep the run from being called stalled) and time out during the
     * later iterations,
     * and those still in flight at the last cut time out in the drain; the run's errors (the document's {@code errors}, whole run) are the
     * iterations' plus the drain's, so the drain's are the run's minus the iterations', worked out here from the
     * document's other fields and checked against its drain and the printed drain line. Counted from the run's
     * start instead (the drain's errors not minus the last cut's), the drain line printed the run's 242, not 5.
     */
    @Test
    void theDrainsErrorsAreThoseOfTheDrainOnly() throws Exception {
        TransportTesting.CountingEvents events = new TransportTesting.CountingEvents();
        try (RunningServer server = TransportTesting.startWithWork(Transports.get("netty"), Duration.ofMillis(100), 1,
                100, events)) {
            Path out = dir.resolve("timeouts.json");
            CliTest.Outcome o = CliTest.run("client", "--port", Integer.toString(server.address().getPort()),
                    "--threads", "1", "--connections", "1", "--window", "32", "--timeout", "2s", "--max-errors", "100%",
                    "--iteration-time", "1s", "--warmup", "0", "--iterations", "5", "--size", "16",
                    "--out", out.toString());
            JsonNode c = ResultDocs.read(out).get("combinations").get(0);
            long inIterations = 0;
            for (JsonNode it : c.get("iterations")) {
                inIterations += it.get("errors").get("total").asLong();
            }
            long run = c.get("errors").get("total").asLong();
            long drained = c.get("drain").get("errors").get("total").asLong();
            assertTrue(inIterations > 0, "requests timed out during the iterations: " + o.out());
            assertTrue(run > inIterations, "and in the drain: " + o.out());
            assertEquals(run - inIterations, drained, "the drain's errors are the run's minus the iterations': "
                    + o.out());
            String line = o.out().lines().filter(l -> l.startsWith("Drain after the last iteration")).findFirst()
                    .orElseThrow(() -> new AssertionError("no drain line: " + o.out()));
            assertTrue(line.contains(" µs, errors " + drained + " ("), "the printed drain line: " + line);
        }
    }

    /**
     * The last iteration ends at its boundary for the load too: no message is sent after the cut, so the drain
     * holds only what was in flight then, at most connections x window (4 here), whichever driver sends. The
     * cut once came after the iteration's figures were built and its line printed, and the senders went on
     * meanwhile: 7,340 messages "drained" at window 1 over 4 connections with the io driver.
     */
    @ParameterizedTest
    @ValueSource(strings = {"io", "threads"})
    void theDrainHoldsOnlyWhatWasInFlightAtTheLastCut(String driver) throws Exception {
        TransportTesting.CountingEvents events = new TransportTesting.CountingEvents();
        try (RunningServer server = TransportTesting.startServer(Transports.get("netty"), Protocol.FRAMED, events)) {
            Path out = dir.resolve("r-" + driver + ".json");
            CliTest.Outcome o = CliTest.run("client", "--port", Integer.toString(server.address().getPort()),
                    "--driver", driver, "--threads", "4", "--window", "1", "--iteration-time", "300ms",
                    "--warmup", "0", "--iterations", "2", "--size", "16", "--out", out.toString());
            assertTrue(o.code() == ExitCode.OK || o.code() == ExitCode.NOTHING_MEASURED, o.out() + o.err());
            JsonNode drain = ResultDocs.read(out).get("combinations").get(0).get("drain");
            assertTrue(drain.get("messages").asLong() <= 4, "sent after the last cut: " + drain);
        }
    }
}
