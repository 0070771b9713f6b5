package io.nbench.stats;

import org.HdrHistogram.Histogram;

/**
 * One slice of at most a second within an iteration: what {@code --hdr-log} and {@code --format ndjson}
 * report (per-iteration figures alone would hide a GC pause inside a long iteration).
 *
 * @param iteration   1-based index within its kind
 * @param warmup      whether the slice belongs to a warmup iteration
 * @param startNanos  slice start, ns since the run's first iteration started
 * @param endNanos    slice end, same clock
 * @param latency     latencies completed in the slice (ns); a new histogram owned by the receiver
 * @param errors      errors in the slice
 */
public record IntervalResult(int iteration, boolean warmup, long startNanos, long endNanos, Histogram latency,
                             ErrorCounts.Snapshot errors) {

    public double messagesPerSecond() {
        long d = endNanos - startNanos;
        return d <= 0 ? 0 : latency.getTotalCount() * 1e9 / d;
    }
}
