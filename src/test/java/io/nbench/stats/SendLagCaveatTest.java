package io.nbench.stats;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The open loop's caveat: nbench's own send lag is called out when its median is over 10 % of the corrected one. */
class SendLagCaveatTest {

    @Test
    void overTenPercentOfTheCorrectedMedianOnlyExactlyTenIsNot() {
        assertFalse(OpenLoopFigures.sendLagCaveat(100_000, 1_000_000), "exactly 10 % is not over");
        assertTrue(OpenLoopFigures.sendLagCaveat(100_001, 1_000_000), "1 ns over");
        assertFalse(OpenLoopFigures.sendLagCaveat(99_999, 1_000_000));
        assertFalse(OpenLoopFigures.sendLagCaveat(7, 70), "exactly 10 % in small numbers too: no rounding");
        assertTrue(OpenLoopFigures.sendLagCaveat(8, 70));
        assertTrue(OpenLoopFigures.sendLagCaveat(70_000, 150_000), "a sleep overshoot of 70 µs against 150 µs");
        assertFalse(OpenLoopFigures.sendLagCaveat(70_000, 2_000_000), "the same overshoot against 2 ms");
    }

    @Test
    void readsTheMediansOfTheHistogramsAndSaysNothingWithoutThem() {
        Histogram corrected = LatencyHistograms.newHistogram();
        Histogram lag = LatencyHistograms.newHistogram();
        assertFalse(OpenLoopFigures.sendLagCaveat(lag, corrected), "nothing measured: no caveat");
        // Values below 2048 are exact in a 3-digit histogram: medians 100 and 1000 ns.
        corrected.recordValueWithCount(1000, 3);
        corrected.recordValue(2000);
        lag.recordValueWithCount(100, 3);
        lag.recordValue(5000);
        assertFalse(OpenLoopFigures.sendLagCaveat(lag, corrected), "medians 100 and 1000: exactly 10 %");
        lag.recordValueWithCount(101, 5);
        assertTrue(OpenLoopFigures.sendLagCaveat(lag, corrected), "median lag 101 against 1000");
        assertFalse(OpenLoopFigures.sendLagCaveat(lag, LatencyHistograms.newHistogram()), "no completed message");
    }
}
