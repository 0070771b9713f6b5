package io.nbench.report;

/** How a combination, or a whole run, ended; the worst combination's status is the run's. */
public enum Status {
    /** Ran to the end; no error over --max-errors; every threshold held. */
    PASS,
    /** Ran to the end but errors exceeded --max-errors or a threshold was breached (the reasons say which). */
    FAIL,
    /**
     * Ran to the end, but the measured iterations completed no message: there is no figure to judge, so it is
     * neither PASS nor a FAIL of the thing measured (the reasons say why and what to change). Worse than FAIL: a
     * FAIL at least measured something.
     */
    NO_DATA,
    /** Stopped early: could not connect, the server died or stalled, results could not be written. */
    ABORTED,
    /** Stopped by SIGINT/SIGTERM; what was measured is kept. */
    INTERRUPTED;

    /**
     * The worse of two, in the order PASS &lt; FAIL &lt; NO_DATA &lt; INTERRUPTED &lt; ABORTED (a run's status is
     * the worst of its combinations').
     */
    public Status worse(Status other) {
        return rank(other) > rank(this) ? other : this;
    }

    private static int rank(Status s) {
        return switch (s) {
            case PASS -> 0;
            case FAIL -> 1;
            case NO_DATA -> 2;
            case INTERRUPTED -> 3;
            case ABORTED -> 4;
        };
    }
}
