package io.nbench.report.threshold;

import io.nbench.load.RunResult;
import io.nbench.stats.IterationResult;
import io.nbench.stats.Summary;
import io.nbench.transport.ErrorKind;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.regex.Pattern;

/**
 * A figure a threshold can judge, read from one combination's result. The table below is the whole
 * vocabulary: a new metric (e.g. the open loop's achieved rate) is one more entry.
 *
 * @param name      as written in an expression
 * @param kind      its unit and how values are written
 * @param extractor reads the figure from a run, in the kind's base unit
 */
public record Metric(String name, MetricKind kind, ToDoubleFunction<RunResult> extractor) {

    private static final Pattern PERCENTILE = Pattern.compile("p([0-9]+(?:\\.[0-9]+)?)");
    private static final Map<String, Metric> FIXED = new LinkedHashMap<>();

    static {
        add(new Metric("max", MetricKind.LATENCY, r -> latencyOrNaN(r.summary(), s -> s.merged().getMaxValue())));
        add(new Metric("min", MetricKind.LATENCY, r -> latencyOrNaN(r.summary(), s -> s.merged().getMinValue())));
        add(new Metric("mean", MetricKind.LATENCY, r -> latencyOrNaN(r.summary(), s -> s.merged().getMean())));
        add(new Metric("throughput", MetricKind.THROUGHPUT, r -> r.summary().throughput().mean()));
        // Errors count the whole run, warmup included, as --max-errors does: for a gate an error is an error.
        add(new Metric("errors", MetricKind.COUNT, r -> r.errors().total()));
        add(new Metric("error-rate", MetricKind.PERCENT, Metric::errorRate));
        // Open loop: the mean achieved send rate of measured iterations; NaN (never passes) in the closed loop.
        add(new Metric("rate-achieved", MetricKind.THROUGHPUT, r -> r.spec().openLoop()
                ? r.summary().mean(it -> it.openLoop().achievedRate(it.wallNanos())) : Double.NaN));
    }

    private static void add(Metric m) {
        FIXED.put(m.name(), m);
    }

    public double valueOf(RunResult result) {
        return extractor.applyAsDouble(result);
    }

    /** The metric called {@code name}: a fixed one, or {@code pN} for any percentile N in (0, 100]. */
    public static Metric named(String name) {
        Metric m = FIXED.get(name);
        if (m != null) {
            return m;
        }
        if (PERCENTILE.matcher(name).matches()) {
            double p = Double.parseDouble(name.substring(1));
            if (p > 0 && p <= 100) {
                return new Metric(name, MetricKind.LATENCY,
                        r -> latencyOrNaN(r.summary(), s -> s.mergedPercentile(p)));
            }
        }
        throw new IllegalArgumentException("unknown metric '" + name + "': use pN (any percentile, e.g. p99.9), "
                + String.join(", ", FIXED.keySet()));
    }

    /** Latency figures of a run without a measured message are NaN: a threshold on them cannot pass. */
    private static double latencyOrNaN(Summary s, ToDoubleFunction<Summary> f) {
        return s.merged().getTotalCount() == 0 ? Double.NaN : f.applyAsDouble(s);
    }

    /**
     * Errors as a percentage of attempts (completed messages plus errors), over the whole run. A status error is a
     * completed (timed) message already: counted once.
     */
    private static double errorRate(RunResult r) {
        long messages = 0;
        for (IterationResult it : r.iterations()) {
            messages += it.messages();
        }
        long errors = r.errors().total();
        long attempts = messages + errors - r.errors().get(ErrorKind.STATUS);
        return attempts == 0 ? 0 : errors * 100.0 / attempts;
    }
}
