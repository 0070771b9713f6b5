package io.nbench.capacity;

/**
 * One measured step of a capacity search, as the search needs it.
 *
 * @param target          the open-loop rate asked for, messages/s
 * @param achieved        the rate actually sent, messages/s (NaN when nothing was measured)
 * @param metObjective    whether every objective held and the step ran clean (no FAIL of its own)
 * @param nearBoundary    whether a figure judged was close to its limit, so noise could flip the verdict: the
 *                        search repeats such a step before it decides
 */
public record StepResult(double target, double achieved, boolean metObjective, boolean nearBoundary) {

    /** A step may fall short of its target by this fraction at most, as an open-loop run's own verdict allows. */
    public static final double RATE_TOLERANCE = 0.01;

    /**
     * Whether the step passes: the objective met and the target rate achieved within 1 %, so a server that
     * cannot keep up never passes because the client slowed down with it.
     */
    public boolean passed() {
        return metObjective && achieved >= target * (1 - RATE_TOLERANCE);
    }
}
