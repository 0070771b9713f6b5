package io.nbench.stats;

import org.HdrHistogram.Histogram;

/**
 * What only the open loop has, per iteration: the target and the messages really sent, how often the
 * in-flight cap made a message wait, the uncorrected latency (from each message's actual send) and the
 * send lag (actual - intended send time: nbench's own lateness).
 */
public record OpenLoopFigures(double targetRate, long sent, long maxInflightHits, Histogram uncorrected,
                              Histogram sendLag) {

    /** Messages sent per second over {@code wallNanos}. */
    public double achievedRate(long wallNanos) {
        return wallNanos <= 0 ? 0 : sent * 1e9 / wallNanos;
    }

    /** Whether the achieved rate fell short of the target by more than 1 %. */
    public boolean missed(long wallNanos) {
        return achievedRate(wallNanos) < targetRate * 0.99;
    }
}
