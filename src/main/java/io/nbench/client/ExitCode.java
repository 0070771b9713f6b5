package io.nbench.client;

/**
 * nbench's exit codes; when several apply, the first in the order usage error, could not run, interrupted, nothing
 * measured, FAILED, unstable, threshold, client limited, unjudged, ok wins. {@link #first} is the one place that order is written.
 */
public final class ExitCode {

    /** Success. */
    public static final int OK = 0;
    /** Could not run or was aborted: cannot connect, server died, results could not be written. */
    public static final int COULD_NOT_RUN = 1;
    /** Usage error: bad option or value. */
    public static final int USAGE = 2;
    /** A {@code --threshold} was breached. */
    public static final int THRESHOLD = 3;
    /** Ran to the end but FAILED: errors over {@code --max-errors}, responses outstanding. */
    public static final int FAILED = 4;
    /** Ran to the end but the measured iterations completed no message (status NO_DATA): nothing to judge. */
    public static final int NOTHING_MEASURED = 5;
    /**
     * {@code compare}: a gate could not be judged (too few iterations, a file without data, a combination missing
     * from a file) and {@code --allow-unjudged} was not given.
     */
    public static final int UNJUDGED = 6;
    /**
     * {@code --find-rate}: some rate passed, but the client (or the machine), not the server, kept the search from
     * going higher: the answer is "at least" that rate.
     */
    public static final int CLIENT_LIMITED = 7;
    /**
     * {@code --find-rate}: the passing rate, measured again before the answer, no longer passed: the server's
     * capacity changed during the search, or every run failed again on a disturbed machine (not confirmed).
     */
    public static final int UNSTABLE = 8;
    /** Interrupted by SIGINT/SIGTERM; the partial result is still printed. */
    public static final int INTERRUPTED = 130;

    /** The order: the first code in it that applies wins. */
    private static final int[] PRECEDENCE = {USAGE, COULD_NOT_RUN, INTERRUPTED, NOTHING_MEASURED, FAILED,
        UNSTABLE, THRESHOLD, CLIENT_LIMITED, UNJUDGED, OK};

    /** Of two codes, the one that comes first in the order (an unknown code after all known ones). */
    public static int first(int a, int b) {
        for (int code : PRECEDENCE) {
            if (a == code || b == code) {
                return code;
            }
        }
        return Math.max(a, b);
    }

    private ExitCode() {
    }
}
