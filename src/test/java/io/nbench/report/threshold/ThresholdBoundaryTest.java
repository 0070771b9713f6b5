package io.nbench.report.threshold;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Thresholds at their edges: strict against non-strict operators at equality, the percentile range's ends. */
class ThresholdBoundaryTest {

    @Test
    void strictOperatorsFailAtEquality() {
        assertFalse(Operator.GT.holds(2, 2), "> is strict");
        assertTrue(Operator.GT.holds(2.000001, 2));
        assertFalse(Operator.GT.holds(1, 2));
        assertFalse(Operator.LT.holds(2, 2), "< is strict");
        assertTrue(Operator.LE.holds(2, 2));
        assertFalse(Operator.LE.holds(2.000001, 2));
        assertTrue(Operator.GE.holds(2, 2));
        assertFalse(Operator.GE.holds(1.999999, 2));
        assertFalse(Operator.EQ.holds(1, 2));
        assertFalse(Operator.NE.holds(2, 2));
        for (Operator o : Operator.values()) {
            assertFalse(o.holds(Double.NaN, 0), o + ": nothing measured never holds");
        }
    }

    @Test
    void percentileMetricsCoverZeroExclusiveToOneHundredInclusive() {
        assertEquals("p100", Metric.named("p100").name());
        assertEquals(MetricKind.LATENCY, Metric.named("p100").kind());
        assertEquals("p0.001", Metric.named("p0.001").name());
        assertThrows(IllegalArgumentException.class, () -> Metric.named("p0"));
        assertThrows(IllegalArgumentException.class, () -> Metric.named("p100.001"));
        assertEquals(100.0, Threshold.parse("p100<1s").limit() / 1e7, 1e-9);
    }

    @Test
    void describedInTheMetricsOwnUnit() {
        assertEquals("p99<2ms (p99 = 3,120 µs)",
                new Threshold.Outcome(Threshold.parse("p99<2ms"), 3_120_000, false).describe());
        assertEquals("throughput>=1k (throughput = 1,500 msg/s)",
                new Threshold.Outcome(Threshold.parse("throughput>=1k"), 1500, true).describe());
        assertEquals("errors==0 (errors = 3)", new Threshold.Outcome(Threshold.parse("errors==0"), 3, false).describe());
        assertEquals("error-rate<1% (error-rate = 1.250%)",
                new Threshold.Outcome(Threshold.parse("error-rate<1%"), 1.25, false).describe());
        assertEquals("p50<1ms (p50 = not measured)",
                new Threshold.Outcome(Threshold.parse("p50<1ms"), Double.NaN, false).describe());
        assertEquals("ns", MetricKind.LATENCY.unit());
        assertEquals("msg/s", MetricKind.THROUGHPUT.unit());
        assertEquals("count", MetricKind.COUNT.unit());
        assertEquals("%", MetricKind.PERCENT.unit());
    }
}
