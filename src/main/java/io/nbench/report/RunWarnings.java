package io.nbench.report;

import io.nbench.stats.IterationResult;
import io.nbench.load.Pacing;
import io.nbench.resources.ResourceUsage;
import io.nbench.stats.OpenLoopFigures;
import io.nbench.stats.Percentiles;
import io.nbench.stats.SteadyState;
import io.nbench.stats.Summary;
import io.nbench.units.Units;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import java.util.stream.Collectors;

/**
 * Every warning a run's summary gives about its own figures, as one sentence each (without the text output's
 * "Warning: " or "Caveat: "): the text output prints them in its summary, the result document keeps them
 * ({@code summary.warnings}), the CSV in its {@code warnings} column, and the machine formats also print them
 * on stderr, so no format drops one.
 */
public final class RunWarnings {

    private RunWarnings() {
    }

    /** Every warning of {@code s}, in the order the text summary prints them. */
    public static List<String> of(Summary s, Pacing pacing) {
        List<String> all = new ArrayList<>();
        add(all, leftOut(s));
        add(all, stretched(s));
        if (s.iterations() > 0) {
            add(all, sendLag(s, pacing));
            add(all, wideInterval(s));
            add(all, notSteady(s));
            add(all, disturbed(s));
            add(all, saturated(s));
        }
        return all;
    }

    private static void add(List<String> all, String warning) {
        if (warning != null) {
            all.add(warning);
        }
    }

    /** Time-based iterations cut under half their time: partial, in no figure of the summary; else null. */
    public static String leftOut(Summary s) {
        if (s.leftOut().isEmpty()) {
            return null;
        }
        String which = s.leftOut().stream().map(r -> Integer.toString(r.index())).collect(Collectors.joining(", "));
        StringJoiner walls = new StringJoiner(", ");
        s.leftOut().forEach(r -> walls.add(Units.seconds(r.wallNanos()) + " s"));
        return s.leftOut().size() + " iteration(s) cut under half the iteration time (iteration " + which + ": "
                + walls + ") are partial and left out of every mean and interval: the run was stopped in them.";
    }

    /** Time-based iterations that overran their time by half: the client was stopped or starved; else null. */
    public static String stretched(Summary s) {
        List<IterationResult> late = s.stretched();
        if (late.isEmpty()) {
            return null;
        }
        String which = late.stream().map(r -> Integer.toString(r.index())).collect(Collectors.joining(", "));
        StringJoiner walls = new StringJoiner(", ");
        late.forEach(r -> walls.add(Units.seconds(r.wallNanos()) + " s"));
        return late.size() + " iteration(s) lasted over 1.5x the iteration time (iteration " + which + ": " + walls
                + "): the client was stopped or starved in them (a stall, a long GC, a busy machine) and their "
                + "figures include it; repeat on a quieter machine.";
    }

    /** The open loop's send lag over 10% of the corrected median; else null. */
    public static String sendLag(Summary s, Pacing pacing) {
        org.HdrHistogram.Histogram lag = s.mergedSendLag();
        if (lag == null || !OpenLoopFigures.sendLagCaveat(lag, s.merged())) {
            return null;
        }
        return "nbench's own send lag (p50 " + Units.micros(Percentiles.valueAt(lag, 50))
                + " µs) is over 10% of the corrected p50 (" + Units.micros(s.mergedPercentile(50))
                + " µs): these latencies include it" + sendLagCause(pacing);
    }

    private static String sendLagCause(Pacing pacing) {
        switch (pacing) {
            case SPIN:
                return " (the pacers spin already: a busy machine or too few cores for them?)";
            case HYBRID:
                return " (wake-ups later than the pacers learned, or messages too close together to wake early for:"
                        + " --pacer spin measures sub-millisecond latency)";
            default:
                return " (mostly the pacers' sleep overshoot); --pacer hybrid or spin measures sub-millisecond latency";
        }
    }

    /** A throughput or percentile-mean interval wider than 10% of its mean; else null. */
    public static String wideInterval(Summary s) {
        boolean wide = s.throughput().widerThan(0.10);
        for (double p : s.percentiles()) {
            wide |= s.meanPercentile(p).widerThan(0.10);
        }
        return wide ? "an interval is wider than 10% of its mean: the machine was noisy or N is small; "
                + "repeat, use more iterations or --forks." : null;
    }

    /** The measured throughput still trending ({@link SteadyState}); else null. */
    public static String notSteady(Summary s) {
        SteadyState trend = s.steadyState();
        return trend.notSteady() ? trend.warning() + "." : null;
    }

    /** Iterations in which the hypervisor took much of the CPU (a merged document may not know); else null. */
    public static String disturbed(Summary s) {
        long disturbed = s.measured().stream().filter(r -> r.resources() != null && r.resources().disturbed()).count();
        return disturbed > 0 ? disturbed + " iteration(s) DISTURBED: the hypervisor took over "
                + Math.round(ResourceUsage.DISTURBED_STEAL_PERCENT) + "% of the CPU; repeat on a quieter machine." : null;
    }

    /** Iterations in which the client used nearly every core; else null. */
    public static String saturated(Summary s) {
        long saturated = s.measured().stream().filter(r -> r.resources() != null && r.resources().clientSaturated()).count();
        return saturated > 0 ? "the client used nearly every core in " + saturated + " iteration(s): these figures "
                + "may be the load generator's limit, not the server's." : null;
    }
}
