package io.nbench.capacity;

/**
 * One measured step of a capacity search, as the search needs it.
 *
 * @param target          the open-loop rate asked for, messages/s
 * @param achieved        the rate actually sent, messages/s (NaN when nothing was measured)
 * @param answered        the rate of answers over the step's measured iterations, messages/s (NaN when nothing was
 *                        measured): short of the target, the server fell behind and its backlog grew
 * @param metObjective    whether every objective held and the step ran clean (no FAIL of its own)
 * @param nearBoundary    whether a figure judged was close to its limit, so noise could flip the verdict: the
 *                        search repeats such a step before it decides
 */
public record StepResult(double target, double achieved, double answered, boolean metObjective,
                         boolean nearBoundary) {

    /** A step may fall short of its target by this fraction at most, as an open-loop run's own verdict allows. */
    public static final double RATE_TOLERANCE = 0.01;

    /**
     * Whether the step passes: the objective met, the target rate sent within 1 % (a server that cannot keep up
     * never passes because the client slowed down with it) and answered within 1 % (a server that falls behind
     * never passes because the step ended before its growing queue reached the latency objective).
     */
    public boolean passed() {
        return metObjective && sentInFull() && answeredInFull();
    }

    /** The client sent the target rate, within 1 %. */
    public boolean sentInFull() {
        return achieved >= target * (1 - RATE_TOLERANCE);
    }

    /** The server answered at the target rate, within 1 %: its queue did not grow over the step. */
    public boolean answeredInFull() {
        return answered >= target * (1 - RATE_TOLERANCE);
    }

    /**
     * Why the step failed ({@link StepCause#NONE} when it passed): the client first (a step not sent in full did
     * not offer the load it was judged at), then the server behind, then the objective.
     */
    public StepCause cause() {
        if (passed()) {
            return StepCause.NONE;
        }
        if (!sentInFull()) {
            return StepCause.SENT_SHORT;
        }
        if (!answeredInFull()) {
            return StepCause.ANSWERED_SHORT;
        }
        return StepCause.OBJECTIVE_BREACHED;
    }
}
