package io.nbench.capacity;

import java.util.List;

/**
 * What a capacity search found: the highest rate that passed, the lowest above it that failed, and every step.
 * The capacity lies in {@code [passed, failed]}; {@link #passed} is the answer (a rate shown to hold), never a
 * figure between the two that no step measured.
 *
 * @param objective  the objectives, as the user wrote them, joined by " and "
 * @param resolution the relative width the bracket was narrowed to, e.g. 0.02
 * @param firstGuess the closed-loop probe's rate the search started from, messages/s
 * @param outcome    how the search ended
 * @param passed     the highest rate that passed, messages/s; NaN when none did
 * @param failed     the lowest rate above {@code passed} that failed, messages/s; NaN when none did
 * @param steps      every open-loop step in the order it ran, repetitions included: the combinations of the run
 *                   whose {@code rate} is not {@link #PROBE}, in order
 */
public record Capacity(String objective, double resolution, double firstGuess, Outcome outcome, double passed,
                       double failed, List<Step> steps) {

    /** The {@code rate} key of the closed-loop probe's combination, which has no rate. */
    public static final String PROBE = "closed-loop";

    public Capacity {
        steps = List.copyOf(steps);
    }

    /** How the search ended. */
    public enum Outcome {
        /** Bracketed and narrowed to the resolution. */
        FOUND,
        /** Stopped by {@code --max-time} before the bracket was as narrow as asked: what it has is printed. */
        STOPPED,
        /** Interrupted (SIGINT) or cut short by a step that could not run: what it has is printed. */
        INTERRUPTED,
        /** Every rate tried failed, down to the lowest the search tries. */
        NONE_PASSED
    }

    /**
     * One step as the search judged it.
     *
     * @param result   what was measured
     * @param decided  the verdict at this rate once its repetitions (if any) were in: null while undecided
     *                 (a step measured again: it failed, or passed near the boundary; the last run carries the
     *                 decision)
     */
    public record Step(StepResult result, Boolean decided) {
    }

    /** Whether some rate passed: there is an answer, however wide its bracket. */
    public boolean found() {
        return !Double.isNaN(passed);
    }

    /** The bracket's width relative to its lower end; NaN while either end is missing. */
    public double width() {
        return (failed - passed) / passed;
    }
}
