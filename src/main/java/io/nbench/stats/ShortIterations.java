package io.nbench.stats;

/**
 * The rule that keeps a time-based iteration cut much shorter than its {@code --iteration-time} (the run was
 * stopped or aborted in it) out of every mean and interval: a few milliseconds' throughput is no sample of a
 * steady rate, and one such iteration among full ones would widen the interval past use. Such an iteration is
 * marked partial, still reported on its own (its line, its place in the document), and named in a warning.
 * Count-based iterations have no nominal length: for them nothing is short.
 */
public final class ShortIterations {

    private ShortIterations() {
    }

    /** Whether an iteration of {@code wallNanos} is under half of {@code iterationNanos} (0: count-based, never). */
    public static boolean tooShort(long wallNanos, long iterationNanos) {
        return iterationNanos > 0 && wallNanos < iterationNanos / 2;
    }

    /**
     * Whether an iteration of {@code wallNanos} lasted over one and a half times {@code iterationNanos} (0:
     * count-based, never): an iteration ends at its time from its own start, so only a client that could not run
     * (stopped, starved, a long GC pause) overruns it by that much.
     */
    public static boolean stretched(long wallNanos, long iterationNanos) {
        return iterationNanos > 0 && wallNanos > iterationNanos + iterationNanos / 2;
    }

    /** Whether a measured iteration is left out of the summary: partial and {@link #tooShort}. */
    public static boolean leftOut(boolean partial, long wallNanos, long iterationNanos) {
        return partial && tooShort(wallNanos, iterationNanos);
    }
}
