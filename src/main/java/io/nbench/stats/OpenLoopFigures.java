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

    /**
     * Whether the corrected latency needs a caveat: the median send lag (nbench's own lateness, mostly the
     * pacer's sleep overshoot) exceeds 10 % of the corrected median, so a noticeable part of the corrected
     * figure is nbench's, not the server's. Exactly 10 % is not over. False when either is empty.
     */
    public static boolean sendLagCaveat(Histogram sendLag, Histogram corrected) {
        if (sendLag.getTotalCount() == 0 || corrected.getTotalCount() == 0) {
            return false;
        }
        return sendLagCaveat(Percentiles.valueAt(sendLag, 50), Percentiles.valueAt(corrected, 50));
    }

    /** The rule itself, on medians in ns: lag over a tenth of the corrected median (integers, no rounding). */
    public static boolean sendLagCaveat(long sendLagP50, long correctedP50) {
        return sendLagP50 * 10 > correctedP50;
    }

    /** Whether the achieved rate fell short of the target by more than 1 %. */
    public boolean missed(long wallNanos) {
        return achievedRate(wallNanos) < targetRate * 0.99;
    }
}
