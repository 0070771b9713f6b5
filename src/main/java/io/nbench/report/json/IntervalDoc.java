package io.nbench.report.json;

/**
 * One second of an iteration (warmup included): a {@code --format ndjson} interval line, and an element of a
 * combination's {@code intervals}. Times from the combination's first iteration start; latencies null in a
 * slice in which no message completed; CPU and steal null where unknown.
 */
public record IntervalDoc(String combination, int iteration, boolean warmup, long startNs, long endNs, long messages,
                          double msgPerSec, Long p50Ns, Long p99Ns, Long maxNs, long errors, Double cpuPercent,
                          Double stealPercent, long gcCount, long gcMillis) {

    /** The line's {@code type}, which tells it from the stream's last line (the document). */
    public static final String TYPE = "interval";

    /**
     * The same second in a run joined of several ({@code nbench run}'s rounds): numbered on from
     * {@code iterationOffset}, {@code shiftNs} later on the joined clock, and warmup if {@code warmup} says so.
     */
    public IntervalDoc joined(int iterationOffset, long shiftNs, boolean warmup) {
        return new IntervalDoc(combination, iteration + iterationOffset, warmup || this.warmup, startNs + shiftNs,
                endNs + shiftNs, messages, msgPerSec, p50Ns, p99Ns, maxNs, errors, cpuPercent, stealPercent, gcCount,
                gcMillis);
    }
}
