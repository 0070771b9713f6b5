package io.nbench.stats;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.HdrHistogram.Histogram;

/**
 * The summary over measured iterations. The headline is the merged histogram of every measured
 * iteration (so p100 is the true maximum and high percentiles are not averaged away); beside it, for
 * comparison with hand-written benchmarks, the mean of each per-iteration percentile and the throughput mean, each with
 * its 99.9 % Student-t interval. A time-based iteration cut shorter than half its time is in none of them
 * ({@link ShortIterations}).
 */
public final class Summary {

    private final List<IterationResult> measured;
    private final Histogram merged;
    private final List<Double> percentiles;

    /** The iterations left out of the summary: measured, partial and too short ({@link ShortIterations}). */
    private final List<IterationResult> leftOut;

    /** Count-based iterations (none is ever too short). */
    public Summary(List<IterationResult> iterations, List<Double> percentiles) {
        this(iterations, percentiles, 0);
    }

    /**
     * @param iterationNanos {@code --iteration-time} of a time-based run, 0 for a count-based one: a measured
     *                       iteration cut shorter than half of it is left out ({@link ShortIterations})
     */
    public Summary(List<IterationResult> iterations, List<Double> percentiles, long iterationNanos) {
        this.iterationNanos = iterationNanos;
        this.measured = new ArrayList<>();
        this.leftOut = new ArrayList<>();
        for (IterationResult r : iterations) {
            if (r.warmup()) {
                continue;
            }
            if (ShortIterations.leftOut(r.partial(), r.wallNanos(), iterationNanos)) {
                leftOut.add(r);
            } else {
                measured.add(r);
            }
        }
        this.percentiles = percentiles;
        this.merged = LatencyHistograms.newHistogram();
        for (IterationResult r : measured) {
            merged.add(r.latency());
        }
    }

    /** {@code --iteration-time} of a time-based run, 0 for a count-based one. */
    private final long iterationNanos;

    /**
     * Measured iterations that lasted well over {@code --iteration-time} ({@link ShortIterations#stretched}): the
     * client was stopped or starved in them, and their figures include it.
     */
    public List<IterationResult> stretched() {
        List<IterationResult> s = new ArrayList<>();
        for (IterationResult r : measured) {
            if (ShortIterations.stretched(r.wallNanos(), iterationNanos)) {
                s.add(r);
            }
        }
        return s;
    }

    /** Open loop: merged uncorrected latency of measured iterations, or null in the closed loop. */
    public Histogram mergedUncorrected() {
        return mergeOpen(true);
    }

    /** Open loop: merged send lag of measured iterations, or null in the closed loop. */
    public Histogram mergedSendLag() {
        return mergeOpen(false);
    }

    private Histogram mergeOpen(boolean uncorrected) {
        if (measured.isEmpty() || measured.get(0).openLoop() == null) {
            return null;
        }
        Histogram h = LatencyHistograms.newHistogram();
        for (IterationResult r : measured) {
            h.add(uncorrected ? r.openLoop().uncorrected() : r.openLoop().sendLag());
        }
        return h;
    }

    /**
     * Open loop: measured iterations whose achieved rate missed the target by more than 1 % either way
     * ({@link OpenLoopFigures#missed}).
     */
    public long rateMissedIterations() {
        return measured.stream().filter(r -> r.openLoop() != null && r.openLoop().missed(r.wallNanos())).count();
    }

    /** Open loop: of {@link #rateMissedIterations}, those above the target (a catch-up burst after a lag). */
    public long rateAboveIterations() {
        return measured.stream().filter(r -> r.openLoop() != null && r.openLoop().above(r.wallNanos())).count();
    }

    /**
     * Open loop: how the rate was missed, e.g. "2 iteration(s): 1 below the target, 1 above it (catch-up
     * after a lag)", "1 iteration(s): 1 below the target", or "" when it never was.
     */
    public String rateMissedText() {
        long missed = rateMissedIterations();
        if (missed == 0) {
            return "";
        }
        long above = rateAboveIterations();
        long below = missed - above;
        String under = below + " below the target";
        String over = above + " above it (catch-up after a lag)";
        return missed + " iteration(s): " + (above == 0 ? under : below == 0 ? over : under + ", " + over);
    }

    public int iterations() {
        return measured.size();
    }

    /** Measured iterations cut too short to count ({@link ShortIterations}): in no figure of this summary. */
    public List<IterationResult> leftOut() {
        return leftOut;
    }

    public List<IterationResult> measured() {
        return measured;
    }

    public List<Double> percentiles() {
        return percentiles;
    }

    public Histogram merged() {
        return merged;
    }

    public long messages() {
        long n = 0;
        for (IterationResult r : measured) {
            n += r.messages();
        }
        return n;
    }

    public ErrorCounts.Snapshot errors() {
        ErrorCounts.Snapshot total = ErrorCounts.Snapshot.ZERO;
        for (IterationResult r : measured) {
            total = total.plus(r.errors());
        }
        return total;
    }

    /** The merged value at a percentile, in ns. */
    public long mergedPercentile(double p) {
        return Percentiles.valueAt(merged, p);
    }

    /**
     * Mean over iterations of the per-iteration value at percentile p (ns), with its interval. Iterations
     * in which no message completed measured no latency and are left out (N says how many count); with
     * none the mean is NaN (not measured), never 0.
     */
    public StudentT.Interval meanPercentile(double p) {
        double[] values = measured.stream().filter(r -> r.latency().getTotalCount() > 0)
                .mapToDouble(r -> r.percentile(p)).toArray();
        return StudentT.interval(values);
    }

    /** Whether any measured message completed: without one there is no latency to report. */
    public boolean latencyMeasured() {
        return merged.getTotalCount() > 0;
    }

    /** Mean messages per second over iterations, with its interval. */
    public StudentT.Interval throughput() {
        double[] values = new double[measured.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = measured.get(i).messagesPerSecond();
        }
        return StudentT.interval(values);
    }

    /** Whether the measured iterations' throughput was at steady state or still trending ({@link SteadyState}). */
    public SteadyState steadyState() {
        return SteadyState.of(measured.stream().mapToDouble(IterationResult::messagesPerSecond).toArray());
    }

    /** Mean of a per-iteration figure over measured iterations, skipping unknown (NaN or negative) values. */
    public double mean(ToDoubleFunction<IterationResult> figure) {
        double sum = 0;
        int n = 0;
        for (IterationResult r : measured) {
            double v = figure.applyAsDouble(r);
            if (!Double.isNaN(v) && v >= 0) {
                sum += v;
                n++;
            }
        }
        return n == 0 ? Double.NaN : sum / n;
    }

    /** Mean MiB/s of responses received (whole, on the wire) over iterations; NaN when an iteration's is unknown. */
    public double mibInPerSecond() {
        return meanOfAll(IterationResult::mibInPerSecond);
    }

    /** Mean MiB/s of requests sent (whole, on the wire) over iterations; NaN when an iteration's is unknown. */
    public double mibOutPerSecond() {
        return meanOfAll(IterationResult::mibOutPerSecond);
    }

    private double meanOfAll(ToDoubleFunction<IterationResult> figure) {
        double sum = 0;
        for (IterationResult r : measured) {
            sum += figure.applyAsDouble(r); // NaN, unknown, stays NaN
        }
        return measured.isEmpty() ? 0 : sum / measured.size();
    }

    /** Mean MiB/s of request payload over iterations. */
    public double mibPerSecond() {
        double sum = 0;
        for (IterationResult r : measured) {
            sum += r.mibPerSecond();
        }
        return measured.isEmpty() ? 0 : sum / measured.size();
    }
}
