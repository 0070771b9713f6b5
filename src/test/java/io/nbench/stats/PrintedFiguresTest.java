package io.nbench.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.resources.ResourceUsage;
import io.nbench.transport.ErrorKind;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * Every per-iteration and summary figure nbench prints, pinned to values worked out by hand on iterations
 * whose messages, wall time and histograms are fixed.
 */
class PrintedFiguresTest {

    private static final long S = 1_000_000_000L;

    private static Histogram histogram(long... values) {
        Histogram h = LatencyHistograms.newHistogram();
        for (long v : values) {
            h.recordValue(v);
        }
        return h;
    }

    private static IterationResult closed(boolean warmup, long messages, long wallNanos, int payload) {
        return new IterationResult(1, warmup, messages, wallNanos, payload, histogram(1000), ErrorCounts.Snapshot.ZERO, 0,
                false, ResourceUsage.UNKNOWN, null, null);
    }

    /** An open-loop iteration of 1 s at 1000 msg/s target that sent {@code sent} messages. */
    private static IterationResult open(boolean warmup, long sent, Histogram uncorrected, Histogram lag) {
        return new IterationResult(1, warmup, sent, S, 100, histogram(5000), ErrorCounts.Snapshot.ZERO, 0, false,
                ResourceUsage.UNKNOWN, new OpenLoopFigures(1000, sent, 0, uncorrected, lag), null);
    }

    @Test
    void messagesAndMebibytesPerSecondExactly() {
        IterationResult it = closed(false, 1000, S / 2, 1024);
        assertEquals(2000.0, it.messagesPerSecond(), 0);
        assertEquals(2000.0 * 1024 / 1048576, it.mibPerSecond(), 0); // 1.953125 MiB/s
        assertEquals(1.953125, it.mibPerSecond(), 0);
        assertEquals(0.0, closed(false, 1000, 0, 1024).messagesPerSecond(), 0, "no wall time: no rate");
        assertEquals(-1.0, it.allocatedPerMessage(), 0, "allocation unknown");
        assertEquals(1000, it.percentile(50), 0);
        Summary s = new Summary(List.of(closed(true, 1, S, 1), closed(false, 1000, S / 2, 1024),
                closed(false, 3000, S, 1024)), Percentiles.DEFAULT);
        assertEquals(2500.0, s.throughput().mean(), 0);
        assertEquals((2000.0 + 3000.0) * 1024 / 1048576 / 2, s.mibPerSecond(), 1e-15);
        assertEquals(4000, s.messages());
        assertEquals(2, s.iterations());
        assertEquals(2, s.measured().size());
        assertEquals(Percentiles.DEFAULT, s.percentiles());
        assertEquals(0.0, new Summary(List.of(), Percentiles.DEFAULT).mibPerSecond(), 0);
    }

    @Test
    void intervalRate() {
        IntervalResult i = new IntervalResult(1, false, 1_000_000, 2_500_000, histogram(1, 2, 3), ErrorCounts.Snapshot.ZERO);
        assertEquals(2000.0, i.messagesPerSecond(), 0); // 3 in 1.5 ms
        assertEquals(0.0, new IntervalResult(1, false, 5, 5, histogram(1), ErrorCounts.Snapshot.ZERO).messagesPerSecond(), 0);
    }

    @Test
    void achievedRateAndTheOnePercentRule() {
        OpenLoopFigures f = new OpenLoopFigures(1000, 990, 0, histogram(1), histogram(1));
        assertEquals(990.0, f.achievedRate(S), 0);
        assertEquals(495.0, f.achievedRate(2 * S), 0);
        assertEquals(0.0, f.achievedRate(0), 0);
        assertEquals(0.0, f.achievedRate(-1), 0);
        // 0.99 of the target is not "more than 1 % short"; 0.989 is; above the target never is.
        assertFalse(f.missed(S), "exactly 0.99 of target");
        assertTrue(new OpenLoopFigures(1000, 989, 0, null, null).missed(S), "0.989 of target");
        assertFalse(new OpenLoopFigures(1000, 991, 0, null, null).missed(S));
        assertFalse(new OpenLoopFigures(1000, 1010, 0, null, null).missed(S), "1.01 of target");
        assertTrue(new OpenLoopFigures(1000, 1000, 0, null, null).missed(2 * S), "half the rate over 2 s");
    }

    @Test
    void summaryCountsMissedIterationsAndMergesOpenLoopHistograms() {
        List<IterationResult> its = List.of(
                open(true, 500, histogram(7), histogram(7)),     // warmup: missed, but not counted
                open(false, 980, histogram(100, 200), histogram(10)),
                open(false, 990, histogram(300), histogram(20, 30)),
                open(false, 1010, histogram(400), histogram(40)));
        Summary s = new Summary(its, Percentiles.DEFAULT);
        assertEquals(1, s.rateMissedIterations());
        Histogram u = s.mergedUncorrected();
        assertEquals(4, u.getTotalCount());
        assertEquals(100, u.getMinValue());
        assertEquals(400, u.getMaxValue());
        Histogram lag = s.mergedSendLag();
        assertEquals(4, lag.getTotalCount());
        assertEquals(10, lag.getMinValue());
        assertEquals(40, lag.getMaxValue());
        Summary closedLoop = new Summary(List.of(closed(false, 1, S, 1)), Percentiles.DEFAULT);
        assertNull(closedLoop.mergedUncorrected());
        assertNull(closedLoop.mergedSendLag());
        assertEquals(0, closedLoop.rateMissedIterations());
        assertNull(new Summary(List.of(), Percentiles.DEFAULT).mergedSendLag());
    }

    @Test
    void meanSkipsUnknownValues() {
        Summary s = new Summary(List.of(closed(false, 100, S, 1), closed(false, 200, S, 1), closed(false, 400, S, 1),
                closed(false, 0, S, 1)), Percentiles.DEFAULT);
        // messages 100, 200, 400 and 0: a figure of messages - 150 is -50 (unknown), 50, 250, -150 (unknown).
        assertEquals(150.0, s.mean(r -> r.messages() - 150), 0);
        assertEquals(175.0, s.mean(r -> r.messages()), 0, "0 is a value");
        assertEquals(700.0 / 3, s.mean(r -> r.messages() == 0 ? Double.NaN : r.messages()), 1e-12, "NaN is unknown");
        assertTrue(Double.isNaN(s.mean(r -> -1)));
    }

    @Test
    void errorsPerIterationOverSeveralIterations() {
        ErrorCounts counts = new ErrorCounts();
        ErrorCounts.Snapshot start = counts.snapshot();
        counts.add(ErrorKind.TIMEOUT);
        counts.add(ErrorKind.TIMEOUT);
        counts.add(ErrorKind.READ);
        ErrorCounts.Snapshot first = counts.snapshot();
        counts.add(ErrorKind.TIMEOUT);
        ErrorCounts.Snapshot second = counts.snapshot();
        ErrorCounts.Snapshot third = counts.snapshot();
        counts.add(ErrorKind.PROTOCOL);
        counts.add(ErrorKind.PROTOCOL);
        counts.add(ErrorKind.PROTOCOL);
        ErrorCounts.Snapshot fourth = counts.snapshot();

        ErrorCounts.Snapshot it1 = first.minus(start);
        ErrorCounts.Snapshot it2 = second.minus(first);
        ErrorCounts.Snapshot it3 = third.minus(second);
        ErrorCounts.Snapshot it4 = fourth.minus(third);
        assertEquals(Map.of(ErrorKind.TIMEOUT, 2L, ErrorKind.READ, 1L), it1.nonZero());
        assertEquals(3, it1.total());
        assertEquals(Map.of(ErrorKind.TIMEOUT, 1L), it2.nonZero());
        assertEquals(1, it2.get(ErrorKind.TIMEOUT));
        assertEquals(0, it2.get(ErrorKind.READ));
        assertEquals(0, it3.total());
        assertEquals(Map.of(), it3.nonZero());
        assertEquals(Map.of(ErrorKind.PROTOCOL, 3L), it4.nonZero());
        ErrorCounts.Snapshot sum = it1.plus(it2).plus(it3).plus(it4);
        assertEquals(7, sum.total());
        assertEquals(3, sum.get(ErrorKind.TIMEOUT));
        assertEquals(fourth.nonZero(), sum.nonZero());
        assertEquals(0, ErrorCounts.Snapshot.ZERO.total());

        IterationResult a = withErrors(it1);
        IterationResult b = withErrors(it4);
        assertEquals(Map.of(ErrorKind.TIMEOUT, 2L, ErrorKind.READ, 1L, ErrorKind.PROTOCOL, 3L),
                new Summary(List.of(a, b), Percentiles.DEFAULT).errors().nonZero());
    }

    private static IterationResult withErrors(ErrorCounts.Snapshot errors) {
        return new IterationResult(1, false, 10, S, 1, histogram(1), errors, 0, false, ResourceUsage.UNKNOWN, null, null);
    }

    @Test
    void everyHistogramSharesTheRange() {
        Histogram packed = LatencyHistograms.newPackedHistogram();
        packed.recordValue(LatencyHistograms.MAX_NANOS);
        Histogram h = LatencyHistograms.newHistogram();
        h.add(packed); // same range: can be added
        assertEquals(1, h.getTotalCount());
        Histogram plain = LatencyHistograms.newHistogram();
        plain.recordValue(1);
        packed.add(plain);
        assertEquals(2, packed.getTotalCount());
        assertEquals(LatencyHistograms.MAX_NANOS, packed.getMaxValue(), packed.getMaxValue() * 0.001);
    }

    @Test
    void percentileLabelsOfVerySmallPercentiles() {
        assertEquals("p0.0001", Percentiles.label(0.0001));
        assertEquals("p99.99", Percentiles.label(99.99));
        assertEquals("p100", Percentiles.label(100));
    }
}
