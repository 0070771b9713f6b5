package io.nbench.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.load.LoadSpec;
import io.nbench.load.Pacing;
import io.nbench.load.RunResult;
import io.nbench.report.CombinationResult;
import io.nbench.report.Status;
import io.nbench.report.TextReport;
import io.nbench.report.json.ResultDocument;
import io.nbench.resources.ResourceUsage;
import io.nbench.stats.ErrorCounts;
import io.nbench.stats.IterationResult;
import io.nbench.stats.LatencyHistograms;
import io.nbench.stats.OpenLoopFigures;
import io.nbench.stats.Percentiles;
import io.nbench.stats.Summary;
import io.nbench.sweep.Combination;
import io.nbench.testkit.Runs;
import io.nbench.transport.TransportRegistry;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * The open loop's achieved rate is judged per measured iteration, both ways: an iteration that sent more
 * than 1 % (and more than one message) above or below target x wall time missed its target. Above is the
 * catch-up burst after a stall (the schedule sends what fell due while it lagged), which offered the server
 * twice the load it was asked to measure at.
 */
class OffTargetRateTest {

    private static final long S = 1_000_000_000L;
    private static final LoadSpec SPEC = Runs.workload().rate(1000).iterationTime(Duration.ofSeconds(1)).warmup(1)
            .iterations(3).spec();

    /** An iteration of {@code wallNanos} at 1000 msg/s target that sent {@code sent} messages, all answered. */
    private static IterationResult iteration(int index, boolean warmup, long sent, long wallNanos) {
        Histogram h = LatencyHistograms.newHistogram();
        h.recordValueWithCount(1_000_000, sent);
        return new IterationResult(index, warmup, sent, wallNanos, 100, h, ErrorCounts.Snapshot.ZERO, 0, false,
                ResourceUsage.UNKNOWN, new OpenLoopFigures(1000, sent, 0, h.copy(), LatencyHistograms.newHistogram()),
                null);
    }

    private static CombinationResult judge(List<IterationResult> its) throws Exception {
        RunResult run = new RunResult(SPEC, its, new Summary(its, SPEC.percentiles()), ErrorCounts.Snapshot.ZERO, 0,
                Map.of(), null, null, 0, false, 0, null);
        ClientPlan.Step step = new ClientPlan.Step(new Combination(Map.of()), ResolvedTransport.resolve(
                TransportRegistry.load(), TransportRegistry.DEFAULT, Map.of(), false), SPEC);
        return new Verdict(MaxErrors.parse("0"), List.of()).judge(step, run, Map.of());
    }

    @Test
    void aCatchUpBurstAt198PercentOfTheTargetFails() throws Exception {
        // The warmup lagged (a stall: 500 of 1000 sent); the first measured iteration caught up (1980).
        List<IterationResult> its = List.of(iteration(1, true, 500, S), iteration(1, false, 1980, S),
                iteration(2, false, 1000, S), iteration(3, false, 1000, S));
        CombinationResult c = judge(its);
        assertEquals(Status.FAIL, c.status());
        assertEquals(ExitCode.FAILED, c.exitCode());
        assertEquals(List.of("target rate missed by more than 1% in 1 iteration(s): 1 above it "
                + "(catch-up after a lag)"), c.reasons());

        IterationResult burst = its.get(1);
        assertTrue(ResultDocument.iteration(burst, Percentiles.DEFAULT).get("openLoop").get("missed").asBoolean());
        assertEquals(1, ResultDocument.summary(new Summary(its, Percentiles.DEFAULT), Pacing.SLEEP).get("openLoop")
                .get("rateMissedIterations").asLong());
        StringWriter text = new StringWriter();
        TextReport report = new TextReport(new PrintWriter(text, true), SPEC, false);
        report.onIteration(burst);
        report.onIteration(its.get(2));
        String[] lines = text.toString().split("\n");
        assertTrue(lines[0].contains("rate 1,980/1,000 OVER "), lines[0]);
        assertFalse(lines[1].contains(" OVER") || lines[1].contains(" MISSED"), lines[1]);
    }

    @Test
    void farBelowTheTargetFailsToo() throws Exception {
        CombinationResult c = judge(List.of(iteration(1, false, 1000, S), iteration(2, false, 20, S)));
        assertEquals(Status.FAIL, c.status());
        assertEquals(List.of("target rate missed by more than 1% in 1 iteration(s): 1 below the target"), c.reasons());
        StringWriter text = new StringWriter();
        new TextReport(new PrintWriter(text, true), SPEC, false).onIteration(iteration(2, false, 20, S));
        assertTrue(text.toString().contains("rate 20/1,000 MISSED "), text.toString());
    }

    @Test
    void onTargetWithinOnePercentOrOneMessagePasses() throws Exception {
        List<IterationResult> its = new ArrayList<>();
        its.add(iteration(1, false, 1010, S)); // exactly 1 % over: not more than 1 %
        its.add(iteration(2, false, 990, S));  // exactly 1 % short
        // A count-based iteration of 50 messages at 1000/s: the last is due at 49 ms and answered 0.1 ms later,
        // so 50 in 49.1 ms (1,018/s): one message more than rate x wall, as a perfect pacer sends.
        its.add(iteration(3, false, 50, 49_100_000L));
        CombinationResult c = judge(its);
        assertEquals(Status.PASS, c.status(), c.reasons().toString());
        assertEquals(List.of(), c.reasons());
        assertTrue(iteration(4, false, 1011, S).openLoop().above(S), "1.1 % over");
        assertTrue(iteration(4, false, 989, S).openLoop().below(S), "1.1 % short");
        assertTrue(iteration(4, false, 52, 49_100_000L).openLoop().above(49_100_000L), "two messages over 49.1");
        assertTrue(iteration(4, false, 0, 0).openLoop().below(0), "no wall time: no rate held");
    }
}
