package io.nbench.report;

/** How a combination, or a whole run, ended; the worst combination's status is the run's. */
public enum Status {
    /** Ran to the end; no error over --max-errors; every threshold held. */
    PASS,
    /** Ran to the end but errors exceeded --max-errors or a threshold was breached (the reasons say which). */
    FAIL,
    /** Stopped early: could not connect, the server died or stalled, results could not be written. */
    ABORTED,
    /** Stopped by SIGINT/SIGTERM; what was measured is kept. */
    INTERRUPTED;

    /** The worse of two, in the order PASS &lt; FAIL &lt; INTERRUPTED &lt; ABORTED (a run's status is the worst of its combinations'). */
    public Status worse(Status other) {
        return rank(other) > rank(this) ? other : this;
    }

    private static int rank(Status s) {
        return switch (s) {
            case PASS -> 0;
            case FAIL -> 1;
            case INTERRUPTED -> 2;
            case ABORTED -> 3;
        };
    }
}
