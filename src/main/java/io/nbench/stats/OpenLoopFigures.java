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

    /** How far the achieved rate may stray from the target, as a fraction of it. */
    public static final double RATE_TOLERANCE = 0.01;

    /**
     * Whether the iteration missed its target rate, either way: it sent more than 1 % (and more than one
     * message) fewer or more than target x wall time. Above the target is a miss too: the open loop
     * catches up on messages due while it lagged (wrk2's schedule does the same), so an iteration after a
     * stall can send up to twice its share; the server then saw a burst, not the target rate, and that
     * iteration's latency is not the latency at the target.
     */
    public boolean missed(long wallNanos) {
        return below(wallNanos) || above(wallNanos);
    }

    /** Sent more than the tolerance fewer than the schedule's target x wall time (or no wall time at all). */
    public boolean below(long wallNanos) {
        return wallNanos <= 0 || scheduled(wallNanos) - sent > tolerance(wallNanos);
    }

    /** Sent more than the tolerance more than target x wall time: catch-up after a lag. */
    public boolean above(long wallNanos) {
        return wallNanos > 0 && sent - scheduled(wallNanos) > tolerance(wallNanos);
    }

    /** Messages the target rate schedules in {@code wallNanos}. */
    private double scheduled(long wallNanos) {
        return targetRate * wallNanos / 1e9;
    }

    /**
     * 1 % of the scheduled messages, but never less than one message: message k of the run is due at
     * start + k / rate, so a window of any length holds one more or one fewer due message depending on
     * where its ends fall (a count-based iteration of N messages, the last due at (N - 1) / rate, always
     * sends one more than rate x its wall time when the last answer is quick), and a perfect pacer must pass.
     */
    private double tolerance(long wallNanos) {
        return Math.max(RATE_TOLERANCE * scheduled(wallNanos), 1);
    }
}
