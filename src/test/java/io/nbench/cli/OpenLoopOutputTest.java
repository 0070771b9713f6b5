package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.client.ExitCode;
import io.nbench.protocol.Protocol;
import io.nbench.report.json.ResultDocument;
import io.nbench.testkit.ResultDocs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the open loop's text says about its figures, checked against the run's own JSON. */
class OpenLoopOutputTest {

    @TempDir
    Path dir;

    private CliTest.Outcome run(Path out, String... more) {
        List<String> args = new ArrayList<>(List.of("client", "--port",
                CliTest.port(Protocol.FRAMED), "--threads", "1", "--msgs", "300", "--warmup", "0", "--iterations", "1",
                "--rate", "2000", "--size", "100", "--out", out.toString()));
        args.addAll(List.of(more));
        return CliTest.run(args.toArray(new String[0]));
    }

    /** Passed, or FAILed only because a busy machine made a cold client miss the rate (not what is tested here). */
    private static void ranToTheEnd(CliTest.Outcome o) {
        assertTrue(o.code() == ExitCode.OK || o.code() == ExitCode.FAILED
                && o.out().contains("Result: FAIL: target rate missed by more than 1% in 1 iteration(s)"), o.out() + o.err());
    }

    @Test
    void theSendLagCaveatIsPrintedExactlyWhenTheJsonFlagsIt() throws Exception {
        Path out = dir.resolve("r.json");
        CliTest.Outcome o = run(out);
        ranToTheEnd(o);
        JsonNode summary = ResultDocs.read(out.toFile()).get("summary");
        long lagP50 = summary.get("openLoop").get("sendLagNs").get("p50").asLong();
        long correctedP50 = summary.get("latencyNs").get("merged").get("p50").asLong();
        boolean expected = lagP50 * 10 > correctedP50;
        assertEquals(expected, summary.get("openLoop").get("sendLagCaveat").asBoolean(), summary.toString());
        assertEquals(expected, o.out().contains("Caveat: nbench's own send lag (p50 "), o.out());
        JsonNode iteration = ResultDocs.read(out.toFile()).get("combinations").get(0)
                .get("iterations").get(0);
        assertEquals(iteration.get("openLoop").get("sendLagNs").get("p50").asLong() * 10
                        > iteration.get("latencyNs").get("p50").asLong(),
                iteration.get("openLoop").get("sendLagCaveat").asBoolean());

        assertFalse(o.out().contains("closed-loop tool would report"), "not true with sends going on: " + o.out());
        assertTrue(o.out().contains("Uncorrected, from each message's actual send (corrected minus send lag"), o.out());
        assertTrue(o.out().contains("paced by 1 threads") || o.out().contains("paced by 1 thread"), o.out());
        assertEquals("hybrid", ResultDocs.read(out.toFile()).get("combinations").get(0).get("load")
                .get("pacing").asText());
    }

    @Test
    void aSpinningPacerIsNamedWithItsCpu() throws Exception {
        Path out = dir.resolve("spin.json");
        CliTest.Outcome o = run(out, "--pacer", "spin");
        ranToTheEnd(o);
        assertEquals("", o.err());
        assertTrue(o.out().contains("paced by 1 spinning pacer thread (--pacer spin: each keeps a core busy)"), o.out());
        assertTrue(o.out().matches("(?s).*Client: cpu \\S+ of one core \\(with 1 spinning pacer thread \\(--pacer spin: "
                + "each keeps a core busy\\)\\), gc .*"), o.out());
        JsonNode doc = ResultDocs.read(out.toFile());
        assertEquals("spin", doc.get("combinations").get(0).get("load").get("pacing").asText());
        assertEquals(300, doc.get("summary").get("messages").asLong());
    }

    @Test
    void spinWithoutRateIsAUsageError() {
        CliTest.Outcome o = CliTest.run("client", "--port", CliTest.port(Protocol.FRAMED), "--pacer", "spin");
        assertEquals(ExitCode.USAGE, o.code());
        assertTrue(o.err().contains("--pacer spin paces the open loop: give --rate too"), o.err());
    }
}
