package io.nbench.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.resources.ResourceUsage;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The open loop's rate rule on exact figures: an iteration misses its target when it sent more than 1 %,
 * and more than one message, fewer or more than target x wall time.
 */
class RateRuleTest {

    private static final long S = 1_000_000_000L;

    private static OpenLoopFigures sent(long n) {
        return new OpenLoopFigures(1000, n, 0, null, null);
    }

    @Test
    void onePercentEitherWay() {
        assertFalse(sent(1010).above(S), "exactly 1 % over is not more than 1 %");
        assertTrue(sent(1011).above(S));
        assertFalse(sent(1011).below(S));
        assertFalse(sent(990).below(S), "exactly 1 % short");
        assertTrue(sent(989).below(S));
        assertFalse(sent(989).above(S));
        assertTrue(sent(1980).missed(S), "the catch-up burst at 198 %");
        assertTrue(sent(20).missed(S));
        assertFalse(sent(1000).missed(S));
        assertTrue(sent(2000).above(S) && !sent(2000).missed(2 * S), "scheduled from the wall time");
    }

    @Test
    void neverLessThanOneMessage() {
        // 49.1 ms at 1000/s schedules 49.1 messages: 1 % is 0.49, so the bound is one message either way.
        long wall = 49_100_000L;
        assertFalse(sent(50).above(wall), "a count-based iteration's fencepost: the last due at 49 ms");
        assertTrue(sent(51).above(wall));
        assertFalse(sent(49).below(wall));
        assertFalse(sent(49).above(wall));
        assertTrue(sent(48).below(wall));
    }

    @Test
    void noWallTimeHeldNoRate() {
        assertTrue(sent(0).below(0));
        assertTrue(sent(5).below(-1));
        assertFalse(sent(5).above(0));
        assertTrue(sent(0).missed(0));
    }

    @Test
    void theSummaryCountsBothWaysAndSaysHow() {
        List<IterationResult> its = List.of(iteration(true, 100), iteration(false, 1980), iteration(false, 1000),
                iteration(false, 500), iteration(false, 1500));
        Summary s = new Summary(its, Percentiles.DEFAULT);
        assertEquals(3, s.rateMissedIterations());
        assertEquals(2, s.rateAboveIterations());
        assertEquals("3 iteration(s): 1 below the target, 2 above it (catch-up after a lag)", s.rateMissedText());
        Summary fine = new Summary(List.of(iteration(false, 1000)), Percentiles.DEFAULT);
        assertEquals(0, fine.rateAboveIterations());
        assertEquals("", fine.rateMissedText());
    }

    private static IterationResult iteration(boolean warmup, long sent) {
        return new IterationResult(1, warmup, sent, S, 100, LatencyHistograms.newHistogram(), ErrorCounts.Snapshot.ZERO,
                0, false, ResourceUsage.UNKNOWN, sent(sent), null);
    }
}
