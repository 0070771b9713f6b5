package io.nbench.capacity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.function.DoubleFunction;
import org.junit.jupiter.api.Test;

/**
 * The search against models of a server whose answer is known: a queue whose p99 grows as 1/(1 - rate/C)
 * (the knee) and which cannot be sent to faster than C, measured without sockets and on a clock of its own.
 */
class RateSearchTest {

    private static final double BASE_P99 = 1.0; // ms at no load
    private static final double LIMIT = 10.0;   // the objective: p99 <= 10 ms

    /** A server of capacity C: p99 = base / (1 - r/C) below C; at or above C it falls behind the schedule. */
    private static StepResult queue(double capacity, double rate) {
        if (rate >= capacity) {
            return new StepResult(rate, rate, capacity, false, false);
        }
        double p99 = BASE_P99 / (1 - rate / capacity);
        return new StepResult(rate, rate, rate, p99 <= LIMIT, Math.abs(p99 - LIMIT) / LIMIT < 0.1);
    }

    /** The rate at which the model's p99 reaches the limit: the true answer. */
    private static double knee(double capacity) {
        return capacity * (1 - BASE_P99 / LIMIT);
    }

    private static Capacity run(RateSearch search, DoubleFunction<StepResult> server) {
        for (OptionalDouble r = search.next(); r.isPresent(); r = search.next()) {
            search.record(server.apply(r.getAsDouble()));
        }
        return search.result();
    }

    private static RateSearch search(double firstGuess, double resolution) {
        return new RateSearch("p99<=10ms", resolution, firstGuess, 1, null, System::nanoTime);
    }

    @Test
    void theBracketHoldsTheKneeAndIsAsNarrowAsAsked() {
        for (double guess : new double[] {3_000, 50, 400_000, 3_600}) {
            Capacity c = run(search(guess, 0.02), r -> queue(4_000, r));
            double knee = knee(4_000);
            assertEquals(Capacity.Outcome.FOUND, c.outcome(), "guess " + guess);
            assertTrue(c.passed() <= knee && knee <= c.failed(), "guess " + guess + ": [" + c.passed() + ", "
                    + c.failed() + "] holds " + knee);
            assertTrue(c.width() <= 0.02, "guess " + guess + ": width " + c.width());
            // A failing rate is measured up to three times (a stall may have failed it).
            assertTrue(c.steps().size() < 45, "guess " + guess + ": " + c.steps().size() + " steps");
        }
    }

    @Test
    void aFinerResolutionNarrowsFurther() {
        Capacity c = run(search(1_000, 0.001), r -> queue(4_000, r));
        assertTrue(c.width() <= 0.001, "width " + c.width());
        assertTrue(c.passed() <= knee(4_000) && knee(4_000) <= c.failed());
    }

    /**
     * A client that cannot send faster than 2,000/s against a server whose latency never breaks the objective:
     * only the achieved rate tells that the step did not offer its load, and that is the client's limit, not the
     * server's (issue 36: "capacity: 179,010 requests/s ... PASS" when only the client fell short). No step bounds
     * the server: the answer is a lower bound, client limited.
     */
    @Test
    void aStepShortOfItsTargetFailsButDoesNotBoundTheServer() {
        DoubleFunction<StepResult> capped = r -> new StepResult(r, Math.min(r, 2_000), Math.min(r, 2_000), true, false);
        Capacity c = run(search(1_500, 0.02), capped);
        assertEquals(Capacity.Outcome.CLIENT_LIMITED, c.outcome());
        assertTrue(c.passed() <= 2_000 * 1.0 / (1 - StepResult.RATE_TOLERANCE), "passed " + c.passed());
        assertTrue(Double.isNaN(c.failed()), "no server failure: " + c.failed());
        assertTrue(c.clientLimit() > 2_000 && (c.clientLimit() - c.passed()) / c.passed() <= 0.02,
                "[" + c.passed() + ", client " + c.clientLimit() + "]");
        for (Capacity.Step s : c.steps()) {
            if (s.result().target() > s.result().achieved() / (1 - StepResult.RATE_TOLERANCE)) {
                assertFalse(s.result().passed(), "a step short of its target: " + s);
                assertEquals(StepCause.SENT_SHORT, s.result().cause(), s.toString());
            }
        }
        assertFalse(new StepResult(1_000, Double.NaN, Double.NaN, true, false).passed(), "nothing sent is not a pass");
    }

    /** The causes, each from the figures a step records, by whose limit they show. */
    @Test
    void eachFailureNamesItsCause() {
        assertEquals(StepCause.NONE, new StepResult(100, 100, 100, true, false).cause());
        assertEquals(StepCause.OBJECTIVE_BREACHED, new StepResult(100, 100, 100, false, false).cause());
        assertEquals(StepCause.ANSWERED_SHORT, new StepResult(100, 100, 90, true, false).cause());
        assertEquals(StepCause.SENT_SHORT, new StepResult(100, 90, 90, true, false).cause());
        assertEquals(StepCause.IN_FLIGHT_CAP, new StepResult(100, 90, 90, true, false, 5, 1e6, false).cause());
        // Waits on the cap while the objective broke: the server's answers were slow enough to fill it.
        assertEquals(StepCause.OBJECTIVE_BREACHED, new StepResult(100, 90, 90, false, false, 5, 50e6, false).cause());
        // Sent in full, the objective broken while the pacer itself stalled 50 ms: the machine.
        assertEquals(StepCause.MACHINE_DISTURBED, new StepResult(100, 100, 100, false, false, 0, 50e6, false).cause());
        assertEquals(StepCause.OBJECTIVE_BREACHED, new StepResult(100, 100, 100, false, false, 0, 1e6, false).cause());
        assertEquals(StepCause.MACHINE_DISTURBED, new StepResult(100, 100, 90, true, false, 0, 0, true).cause());
        // A stalled pacer explains a breach only when the client's own lateness is half the latency p99 or more:
        // a 20 ms lag beside a p99 of 75 ms is the server's breach, 50 ms beside 60 ms the machine. Steal is the
        // machine's whatever the lag (it takes the CPU from the server too).
        assertEquals(StepCause.MACHINE_DISTURBED,
                new StepResult(100, 100, 90, false, false, 0, 3e6, true, 75e6).cause());
        assertEquals(StepCause.OBJECTIVE_BREACHED,
                new StepResult(100, 100, 100, false, false, 0, 20e6, false, 75e6).cause());
        assertEquals(StepCause.MACHINE_DISTURBED,
                new StepResult(100, 100, 100, false, false, 0, 50e6, false, 60e6).cause());
        assertTrue(StepCause.ANSWERED_SHORT.boundsTheServer() && StepCause.OBJECTIVE_BREACHED.boundsTheServer());
        assertFalse(StepCause.SENT_SHORT.boundsTheServer() || StepCause.IN_FLIGHT_CAP.boundsTheServer()
                || StepCause.MACHINE_DISTURBED.boundsTheServer());
    }

    /**
     * A rate that failed twice on a disturbed machine and once for the server is a server bound; a rate whose
     * every run failed on the machine is not, so the answer is client limited (the server's limit not reached).
     */
    @Test
    void aRateBoundsTheServerOnlyWhenARunFailedForTheServer() {
        List<Double> seen = new ArrayList<>();
        DoubleFunction<StepResult> model = r -> {
            seen.add(r);
            if (r < 1_000) {
                return new StepResult(r, r, r, true, false);
            }
            boolean third = seen.stream().filter(x -> x.equals(r)).count() == 3;
            return third ? new StepResult(r, r, r, false, false)
                    : new StepResult(r, r, r, false, false, 0, 80e6, false);
        };
        Capacity c = run(search(800, 0.02), model);
        assertEquals(Capacity.Outcome.FOUND, c.outcome(), c.steps().toString());
        assertTrue(c.passed() < 1_000 && c.failed() == 1_000, "[" + c.passed() + ", " + c.failed() + "]");
        assertTrue(Double.isNaN(c.clientLimit()), c.toString());
        Capacity m = run(search(800, 0.02), r -> r < 1_000 ? new StepResult(r, r, r, true, false)
                : new StepResult(r, r, r, false, false, 0, 80e6, false));
        assertEquals(Capacity.Outcome.CLIENT_LIMITED, m.outcome());
        assertTrue(Double.isNaN(m.failed()) && m.clientLimit() >= 1_000, m.toString());
    }

    /**
     * Once the bracket is narrow enough its ends are measured once more, interleaved (pass, fail), and the spread
     * of every run at each end is what the answer carries.
     */
    @Test
    void theBracketsEndsAreMeasuredAgainInterleavedBeforeTheAnswer() {
        List<Double> measured = new ArrayList<>();
        Capacity c = run(search(3_000, 0.02), r -> {
            measured.add(r);
            return queue(4_000, r);
        });
        assertEquals(Capacity.Outcome.FOUND, c.outcome());
        List<Capacity.Step> again = c.steps().stream().filter(Capacity.Step::confirming).toList();
        // The pass, the failing end, then the pass again while it is undecided (a pass near the boundary needs two).
        assertEquals(List.of(c.passed(), c.failed()), again.stream().limit(2).map(s -> s.result().target()).toList(),
                "measured: " + measured);
        assertTrue(again.stream().skip(2).allMatch(s -> s.result().target() == c.passed()), again.toString());
        int first = c.steps().indexOf(again.get(0));
        assertTrue(c.steps().subList(first, c.steps().size()).stream().allMatch(Capacity.Step::confirming));
        Capacity.Spread p = c.spreadAt(c.passed());
        assertTrue(p.runs() >= 2 && p.passes() == p.runs(), p.toString());
        assertTrue(c.spreadAt(c.failed()).runs() >= RateSearch.RUNS + 1, c.spreadAt(c.failed()).toString());
    }

    /**
     * A pass whose every run fails again on a disturbed machine (none for the server) is not confirmed: unstable,
     * never found. Before: found, PASS, at a rate that had failed three times out of four (CI, 2026-11-29).
     */
    @Test
    void aPassThatFailsAgainOnlyForTheMachineIsNotConfirmed() {
        RateSearch search = search(800, 0.02);
        for (OptionalDouble r = search.next(); r.isPresent(); r = search.next()) {
            double rate = r.getAsDouble();
            search.record(search.confirmingTheAnswer()
                    ? new StepResult(rate, rate, rate, false, false, 0, 0, true, Double.NaN) // steal explains it
                    : queue(1_000, rate));
        }
        Capacity c = search.result();
        assertEquals(Capacity.Outcome.UNSTABLE, c.outcome(), c.steps().toString());
        List<Capacity.Step> again = c.steps().stream().filter(Capacity.Step::confirming).toList();
        assertTrue(again.stream().filter(s -> s.result().target() == c.passed()).count() >= RateSearch.RUNS,
                again.toString());
        assertTrue(again.stream().filter(s -> s.result().target() == c.passed())
                .noneMatch(s -> s.result().cause().boundsTheServer()), again.toString());
    }

    /**
     * Issue 36's degrading server: a pass at 423/s, then every later step fails as the server slows to 52-92/s.
     * The passing rate, measured again at the end, no longer passes (for the server's cause): unstable.
     */
    @Test
    void aServerThatSlowsDuringTheSearchIsUnstable() {
        int[] steps = {0};
        DoubleFunction<StepResult> degrading = r -> {
            double capacity = steps[0]++ < 1 ? 1_000 : 60;
            return r <= capacity * 0.9 ? new StepResult(r, r, r, true, false)
                    : new StepResult(r, r, Math.min(r, capacity), false, false);
        };
        Capacity c = run(search(423, 0.02), degrading);
        assertEquals(Capacity.Outcome.UNSTABLE, c.outcome(), c.steps().toString());
        assertEquals(423, c.passed());
        List<Capacity.Step> again = c.steps().stream().filter(Capacity.Step::confirming).toList();
        assertEquals(423.0, again.get(0).result().target(), "the pass first");
        assertEquals(RateSearch.RUNS + 1, again.size(), "the pass until decided, the failing end once: " + again);
        // Measured from the jar against 4 threads x 10 ms: 398/s passed answering 394/s (394.02 needed), then
        // failed answering 392-394/s. A pass at the very edge that fails again falls back, once, to the next lower
        // pass, which is confirmed in turn: found, not unstable.
        List<Double> seen = new ArrayList<>();
        Capacity edge = run(search(359, 0.02), r -> {
            seen.add(r);
            boolean twice = seen.stream().filter(x -> x.equals(r)).count() > 1;
            double answered = r < 396 ? r : r == 398 && !twice ? 394.1 : 392;
            return new StepResult(r, r, answered, true, false);
        });
        assertEquals(Capacity.Outcome.FOUND, edge.outcome(), edge.steps().toString());
        assertTrue(edge.passed() < 396 && edge.failed() == 398, "[" + edge.passed() + ", " + edge.failed() + "]");
        // A pass that holds when measured again keeps FOUND.
        assertEquals(Capacity.Outcome.FOUND, run(search(423, 0.02), r -> queue(4_000, r)).outcome());
    }

    @Test
    void aStepNearTheBoundaryIsRepeatedAndTheMajorityDecides() {
        // Near 3,000/s the verdict is noisy: fail, then pass, then pass. Elsewhere clear.
        List<Double> measured = new ArrayList<>();
        int[] nearRuns = {0};
        DoubleFunction<StepResult> noisy = r -> {
            measured.add(r);
            if (r == 3_000) {
                boolean pass = nearRuns[0]++ > 0;
                return new StepResult(r, r, r, pass, true);
            }
            return new StepResult(r, r, r, r < 3_000, false);
        };
        Capacity c = run(search(3_000, 0.02), noisy);
        assertEquals(3, c.steps().stream().filter(s -> !s.confirming() && s.result().target() == 3_000).count(),
                "measured three times at the noisy rate: " + measured);
        assertEquals(List.of(3_000.0, 3_000.0, 3_000.0), measured.subList(0, 3));
        assertEquals(null, c.steps().get(0).decided());
        assertEquals(null, c.steps().get(1).decided());
        assertEquals(Boolean.TRUE, c.steps().get(2).decided(), "two passes of three decide");
        assertTrue(c.passed() >= 3_000, "the majority passed at 3,000: " + c.passed());
    }

    @Test
    void aPassDecidesAtOnceUnlessNearTheBoundaryAndAFailureOnlyAfterThreeRuns() {
        StepResult nearFail = new StepResult(10, 10, 10, false, true);
        StepResult clearFail = new StepResult(10, 10, 10, false, false);
        StepResult nearPass = new StepResult(10, 10, 10, true, true);
        StepResult clearPass = new StepResult(10, 10, 10, true, false);
        assertEquals(Boolean.TRUE, RateSearch.decide(List.of(clearPass)));
        assertEquals(null, RateSearch.decide(List.of(nearPass)), "a near pass waits for a second");
        assertEquals(Boolean.TRUE, RateSearch.decide(List.of(nearPass, nearPass)));
        assertEquals(null, RateSearch.decide(List.of(clearFail)), "a stall may have failed it: measured again");
        assertEquals(null, RateSearch.decide(List.of(nearFail, clearFail)));
        assertEquals(Boolean.TRUE, RateSearch.decide(List.of(clearFail, clearFail, clearPass)));
        assertEquals(Boolean.FALSE, RateSearch.decide(List.of(clearFail, nearPass, clearFail)));
        assertEquals(Boolean.FALSE, RateSearch.decide(List.of(clearFail, clearFail, clearFail)));
    }

    /**
     * A loaded machine: a scheduling stall fails the first run at every rate, however far below the knee (what
     * issue 28's first search on a busy machine did, 595/s found for a server of 4,000/s). Stalls only add
     * latency and delay answers, so the failing runs are measured again and the answer stays at the knee.
     */
    @Test
    void aStallThatFailsTheFirstRunAtEachRateDoesNotMoveTheAnswer() {
        List<Double> seen = new ArrayList<>();
        DoubleFunction<StepResult> stalling = r -> {
            boolean first = !seen.contains(r);
            seen.add(r);
            StepResult clean = queue(4_000, r);
            return first ? new StepResult(r, r, r, false, false) : clean;
        };
        Capacity c = run(search(1_000, 0.02), stalling);
        assertEquals(Capacity.Outcome.FOUND, c.outcome());
        assertTrue(c.passed() <= knee(4_000) && knee(4_000) <= c.failed(), "[" + c.passed() + ", " + c.failed()
                + "] holds " + knee(4_000));
        assertTrue(c.steps().size() < 60, c.steps().size() + " steps");
    }

    /**
     * A server that falls behind (answers at most 2,000/s) while the step is too short for its growing queue to
     * reach the latency objective: the answers short of the target fail the step.
     */
    @Test
    void aServerFallingBehindFailsWithinItsLatencyObjective() {
        Capacity c = run(search(1_500, 0.02), r -> new StepResult(r, r, Math.min(r, 2_000), true, false));
        assertEquals(Capacity.Outcome.FOUND, c.outcome());
        assertTrue(c.passed() <= 2_000 / (1 - StepResult.RATE_TOLERANCE), "passed " + c.passed());
        assertTrue(c.failed() > 2_000, "failed " + c.failed());
        assertFalse(new StepResult(1_000, 1_000, Double.NaN, true, false).passed(), "nothing answered is no pass");
    }

    @Test
    void maxTimeStopsBeforeAStepThatWouldEndAfterItAndKeepsTheBracketSoFar() {
        long[] now = {0};
        long stepNanos = Duration.ofSeconds(2).toNanos();
        RateSearch s = new RateSearch("p99<=10ms", 0.0001, 1_000, 1, Duration.ofSeconds(9), () -> now[0]);
        Capacity c = run(s, r -> {
            now[0] += stepNanos;
            return queue(4_000, r);
        });
        assertEquals(Capacity.Outcome.STOPPED, c.outcome());
        assertEquals(4, c.steps().size(), "steps of 2 s within 9 s: the fifth would end at 10 s");
        assertTrue(c.found() && c.passed() <= knee(4_000), "the bracket so far: " + c.passed());
    }

    @Test
    void noRatePassingEndsWithNonePassedAndNoAnswer() {
        Capacity c = run(search(5_000, 0.02), r -> new StepResult(r, r, r, false, false));
        assertEquals(Capacity.Outcome.NONE_PASSED, c.outcome());
        assertFalse(c.found());
        assertTrue(c.steps().size() < 30, c.steps().size() + " steps");
    }

    @Test
    void theLowestRateIsTriedAndNothingBelowIt() {
        List<Double> measured = new ArrayList<>();
        RateSearch s = new RateSearch("p99<=10ms", 0.02, 5_000, 333, null, System::nanoTime);
        Capacity c = run(s, r -> {
            measured.add(r);
            return new StepResult(r, r, r, false, false);
        });
        assertEquals(Capacity.Outcome.NONE_PASSED, c.outcome());
        assertEquals(333.0, measured.get(measured.size() - 1), "ends at the lowest rate: " + measured);
        assertTrue(measured.stream().allMatch(r -> r >= 333), measured.toString());
    }

    @Test
    void aStoppedSearchKeepsEveryStep() {
        RateSearch s = search(1_000, 0.02);
        s.record(queue(4_000, s.next().getAsDouble()));
        s.stop(Capacity.Outcome.INTERRUPTED);
        assertTrue(s.next().isEmpty());
        Capacity c = s.result();
        assertEquals(Capacity.Outcome.INTERRUPTED, c.outcome());
        assertEquals(1, c.steps().size());
        assertEquals(1_000, c.passed());
        assertTrue(Double.isNaN(c.failed()));
    }
}
