package io.nbench.report.compare;

import io.nbench.stats.Percentiles;
import io.nbench.units.Units;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleFunction;
import java.util.function.ToDoubleFunction;
import java.util.stream.DoubleStream;

/**
 * A figure {@code nbench compare} puts side by side, read from each measured iteration. The table is the
 * whole list; adding a metric (allocation per message) is one more entry.
 *
 * @param name           row label
 * @param higherIsBetter throughput: higher is faster; latency: lower is faster
 * @param perIteration   the figure of one iteration; NaN when the document does not have it
 * @param format         how a value is shown
 * @param unit           the unit of the values: msg/s, ns (latency, CPU time per message) or %
 * @param cost           a resource used rather than a speed: its verdict says less or more, and its row is
 *                       shown only when a file has the figure
 */
public record CompareMetric(String name, boolean higherIsBetter, ToDoubleFunction<ResultFile.IterationData> perIteration,
                            DoubleFunction<String> format, String unit, boolean cost) {

    public static final List<CompareMetric> ALL = List.of(
            new CompareMetric("throughput", true, ResultFile.IterationData::msgPerSec, v -> Units.rate(v) + " msg/s",
                    "msg/s", false),
            new CompareMetric("mean", false, it -> it.latency().getTotalCount() == 0 ? 0 : it.latency().getMean(),
                    v -> Units.micros(v) + " µs", "ns", false),
            latency("p50", 50),
            latency("p90", 90),
            latency("p99", 99),
            latency("p99.9", 99.9),
            latency("max", 100),
            cpu("client CPU", ResultFile.IterationData::clientCpuPercent),
            cpu("server CPU", ResultFile.IterationData::serverCpuPercent),
            cpuPerMessage("client CPU/msg", ResultFile.IterationData::clientCpuNsPerMessage),
            cpuPerMessage("server CPU/msg", ResultFile.IterationData::serverCpuNsPerMessage));

    private static CompareMetric latency(String name, double p) {
        return new CompareMetric(name, false, it -> Percentiles.valueAt(it.latency(), p), v -> Units.micros(v) + " µs",
                "ns", false);
    }

    /** The process's CPU in % of one core over the iteration (user + system). */
    private static CompareMetric cpu(String name, ToDoubleFunction<ResultFile.IterationData> f) {
        return new CompareMetric(name, false, f, v -> String.format(Locale.ROOT, "%.0f%%", v), "%", true);
    }

    /** The process's CPU time per message (ns), shown in µs like the latencies. */
    private static CompareMetric cpuPerMessage(String name, ToDoubleFunction<ResultFile.IterationData> f) {
        return new CompareMetric(name, false, f, v -> Units.micros(v) + " µs", "ns", true);
    }

    /** The figure of each iteration that has it (a cost metric skips iterations without one). */
    public double[] values(List<ResultFile.IterationData> iterations) {
        DoubleStream all = iterations.stream().mapToDouble(perIteration);
        return cost ? all.filter(v -> !Double.isNaN(v)).toArray() : all.toArray();
    }
}
