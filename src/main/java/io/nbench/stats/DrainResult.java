package io.nbench.stats;

import org.HdrHistogram.Histogram;

/**
 * What completed after a time-based run's last iteration was cut: the responses still outstanding at the
 * last boundary, waited for (up to {@code --timeout}) so the connections close clean. They belong to no
 * iteration, since every iteration's figures are final when its line is printed; they are reported on
 * their own so that nothing the server answered goes uncounted. Count-based runs have none: each of their
 * iterations ends only when its last response is in.
 *
 * @param messages  messages completed during the drain
 * @param wallNanos from the last iteration's cut to the drain's end
 * @param latency   their latency (ns; in the open loop corrected, from the intended send time)
 * @param errors    errors during the drain (timeouts of the messages that never came back)
 */
public record DrainResult(long messages, long wallNanos, Histogram latency, ErrorCounts.Snapshot errors) {

    /**
     * Two drains as one (nbench run's rounds: each round's client drains after its own last cut): counts,
     * times and errors added, histograms merged into a new one; either may be null (a count-based run).
     */
    public static DrainResult plus(DrainResult a, DrainResult b) {
        if (a == null || b == null) {
            return a == null ? b : a;
        }
        Histogram latency = LatencyHistograms.newHistogram();
        latency.add(a.latency());
        latency.add(b.latency());
        return new DrainResult(Math.addExact(a.messages(), b.messages()), a.wallNanos() + b.wallNanos(), latency,
                a.errors().plus(b.errors()));
    }

    /** Whether anything happened in the drain: a message completed or an error was counted. */
    public boolean any() {
        return messages > 0 || errors.total() > 0;
    }
}
