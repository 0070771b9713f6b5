package io.nbench.report.compare;

import io.nbench.report.Units;
import io.nbench.stats.Percentiles;
import java.util.List;
import java.util.function.DoubleFunction;
import java.util.function.ToDoubleFunction;

/**
 * A figure {@code nbench compare} puts side by side, read from each measured iteration. The table is the
 * whole list; adding a metric (CPU per message, allocation) is one more entry.
 *
 * @param name           row label
 * @param higherIsBetter throughput: higher is faster; latency: lower is faster
 * @param perIteration   the figure of one iteration
 * @param format         how a value is shown
 */
public record CompareMetric(String name, boolean higherIsBetter, ToDoubleFunction<ResultFile.IterationData> perIteration,
                            DoubleFunction<String> format) {

    public static final List<CompareMetric> ALL = List.of(
            new CompareMetric("throughput", true, ResultFile.IterationData::msgPerSec, v -> Units.rate(v) + " msg/s"),
            latency("p50", 50),
            latency("p90", 90),
            latency("p99", 99),
            latency("p99.9", 99.9),
            latency("max", 100));

    private static CompareMetric latency(String name, double p) {
        return new CompareMetric(name, false, it -> Percentiles.valueAt(it.latency(), p), v -> Units.micros(v) + " µs");
    }

    public double[] values(List<ResultFile.IterationData> iterations) {
        return iterations.stream().mapToDouble(perIteration).toArray();
    }
}
