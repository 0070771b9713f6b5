package io.nbench.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.resources.ResourceUsage;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** Percentile means and Student-t intervals checked against values computed by hand. */
class StatisticsTest {

    @Test
    void tQuantilesMatchTheTables() {
        // Two-sided 99.9 %: the 0.9995 quantile. Published table values.
        assertEquals(636.619, StudentT.quantile(0.999, 1), 0.01);
        assertEquals(8.610, StudentT.quantile(0.999, 4), 0.001);
        assertEquals(4.781, StudentT.quantile(0.999, 9), 0.001);
        assertEquals(3.850, StudentT.quantile(0.999, 20), 0.001);
    }

    @Test
    void intervalByHand() {
        // mean 14; deviations -4 -2 0 2 4 -> sum of squares 40, s^2 = 40/4 = 10, s = 3.16228
        // half-width = 8.610302 * 3.16228 / sqrt(5) = 12.1768
        StudentT.Interval ci = StudentT.interval(new double[] {10, 12, 14, 16, 18});
        assertEquals(14.0, ci.mean(), 1e-12);
        assertEquals(12.1768, ci.halfWidth(), 1e-3);
        assertEquals(5, ci.n());
        assertTrue(ci.widerThan(0.10));
    }

    @Test
    void oneSampleHasNoInterval() {
        StudentT.Interval ci = StudentT.interval(new double[] {42});
        assertEquals(42, ci.mean());
        assertTrue(Double.isNaN(ci.halfWidth()));
        assertFalse(ci.widerThan(0.1));
    }

    @Test
    void identicalSamplesHaveZeroWidth() {
        assertEquals(0.0, StudentT.interval(new double[] {7, 7, 7, 7}).halfWidth(), 0);
    }

    private static IterationResult iteration(int index, boolean warmup, long[] values, long wallNanos) {
        Histogram h = LatencyHistograms.newHistogram();
        for (long v : values) {
            h.recordValue(v);
        }
        return new IterationResult(index, warmup, values.length, wallNanos, 1024, h, ErrorCounts.Snapshot.ZERO, 0, false,
                ResourceUsage.UNKNOWN, null, null);
    }

    @Test
    void summaryMergesMeasuredIterationsAndAveragesPercentiles() {
        // Iteration A: 100 values 1..100 µs; iteration B: 100 values 101..200 µs; warmup: one huge value.
        long[] a = new long[100];
        long[] b = new long[100];
        for (int i = 0; i < 100; i++) {
            a[i] = (i + 1) * 1000L;
            b[i] = (i + 101) * 1000L;
        }
        List<IterationResult> its = List.of(
                iteration(1, true, new long[] {9_000_000_000L}, 1_000_000_000L),
                iteration(1, false, a, 1_000_000_000L),   // 100 msg/s
                iteration(2, false, b, 500_000_000L));    // 200 msg/s
        Summary s = new Summary(its, Percentiles.DEFAULT);
        assertEquals(2, s.iterations());
        assertEquals(200, s.messages());
        // Merged: the warmup is excluded, p100 is the maximum (to the histogram's 0.1 % resolution),
        // p50 is the 100th of 200 values.
        assertEquals(200_000, s.mergedPercentile(100), 200);
        assertEquals(100_000, s.merged().highestEquivalentValue(s.mergedPercentile(50)), 100);
        // Means of per-iteration percentiles: p50 of A is 50 µs, of B 150 µs -> 100 µs.
        double p50a = its.get(1).percentile(50);
        double p50b = its.get(2).percentile(50);
        assertEquals((p50a + p50b) / 2, s.meanPercentile(50).mean(), 1e-9);
        assertEquals(50_000, p50a, 50);
        assertEquals(150_000, p50b, 150);
        // Throughput: 100 and 200 msg/s: mean 150, s = 70.71, t(9.995e-1, 1) = 636.62 -> 636.62*70.71/1.4142 = 31831
        StudentT.Interval tp = s.throughput();
        assertEquals(150, tp.mean(), 1e-9);
        assertEquals(31831, tp.halfWidth(), 1);
    }

    @Test
    void iterationsThatMeasuredNothingAreLeftOutOfThePercentileMeans() {
        Summary none = new Summary(List.of(iteration(1, false, new long[0], 1_000_000_000L),
                iteration(2, false, new long[0], 1_000_000_000L)), Percentiles.DEFAULT);
        assertFalse(none.latencyMeasured());
        assertEquals(0, none.meanPercentile(50).n());
        assertTrue(Double.isNaN(none.meanPercentile(50).mean()));
        // One message in one of three iterations: the latency is measured, from that iteration alone.
        Summary one = new Summary(List.of(iteration(1, false, new long[0], 1_000_000_000L),
                iteration(2, false, new long[] {5_000}, 1_000_000_000L),
                iteration(3, false, new long[0], 1_000_000_000L)), Percentiles.DEFAULT);
        assertTrue(one.latencyMeasured());
        assertEquals(1, one.meanPercentile(50).n());
        assertEquals(5_000, one.meanPercentile(50).mean(), 5);
        // Throughput counts every iteration: 1 message over 3 seconds of iterations is a mean of 1/3 msg/s.
        assertEquals(1.0 / 3, one.throughput().mean(), 1e-12);
    }

    @Test
    void percentileOfEmptyHistogramIsZero() {
        assertEquals(0, Percentiles.valueAt(LatencyHistograms.newHistogram(), 99));
    }

    @Test
    void percentileParsingAndLabels() {
        assertEquals(List.of(50.0, 99.9, 100.0), Percentiles.parse("50,p99.9, 100"));
        assertEquals("p99.9", Percentiles.label(99.9));
        assertEquals("p50", Percentiles.label(50));
        assertEquals("p99.99", Percentiles.label(99.99));
        assertThrows(IllegalArgumentException.class, () -> Percentiles.parse("0"));
        assertThrows(IllegalArgumentException.class, () -> Percentiles.parse("101"));
        assertThrows(IllegalArgumentException.class, () -> Percentiles.parse("fifty"));
    }
}
