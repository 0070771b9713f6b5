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
 * @param failed     the lowest rate above {@code passed} that failed for a cause of the server's
 *                   ({@link StepCause#boundsTheServer}), messages/s; NaN when none did
 * @param clientLimit the lowest rate above {@code passed} that failed only for causes of the client or the
 *                   machine (never for the server's), messages/s; NaN when none did: it does not bound the capacity
 * @param steps      every open-loop step in the order it ran, repetitions included: the combinations of the run
 *                   whose {@code rate} is not {@link #PROBE}, in order
 */
public record Capacity(String objective, double resolution, double firstGuess, Outcome outcome, double passed,
                       double failed, double clientLimit, List<Step> steps) {

    /** The {@code rate} key of the closed-loop probe's combination, which has no rate. */
    public static final String PROBE = "closed-loop";

    public Capacity {
        steps = List.copyOf(steps);
    }

    /** A search with no client limit. */
    public Capacity(String objective, double resolution, double firstGuess, Outcome outcome, double passed,
                    double failed, List<Step> steps) {
        this(objective, resolution, firstGuess, outcome, passed, failed, Double.NaN, steps);
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
        NONE_PASSED,
        /**
         * Some rate passed, but no rate above it failed for the server: the client (or the machine) could not go
         * further. The answer is a lower bound of the capacity.
         */
        CLIENT_LIMITED,
        /**
         * The passing rate, measured again before the answer, no longer passed: failed for the server (the
         * server's capacity changed during the search), or failed every run on a disturbed machine (the answer
         * could not be confirmed). No figure stands.
         */
        UNSTABLE
    }

    /**
     * One step as the search judged it.
     *
     * @param result   what was measured
     * @param decided  the verdict at this rate once its repetitions (if any) were in: null while undecided
     *                 (a step measured again: it failed, or passed near the boundary; the last run carries the
     *                 decision)
     * @param atNanos  when the step ended, ns since the search began
     * @param confirming whether the step measured a bracket's end again after the bracket closed
     */
    public record Step(StepResult result, Boolean decided, long atNanos, boolean confirming) {
        public Step(StepResult result, Boolean decided) {
            this(result, decided, 0, false);
        }
    }

    /**
     * The runs at one rate, as the answer reports them: how many, how many passed, the range of the rates
     * answered (NaN when none).
     */
    public record Spread(int runs, int passes, double answeredMin, double answeredMax) {
    }

    /** Every run at {@code rate}: the repeat measurements' spread behind one end of the bracket. */
    public Spread spreadAt(double rate) {
        int runs = 0;
        int passes = 0;
        double min = Double.NaN;
        double max = Double.NaN;
        for (Step s : steps) {
            if (s.result().target() != rate) {
                continue;
            }
            runs++;
            passes += s.result().passed() ? 1 : 0;
            double a = s.result().answered();
            if (!Double.isNaN(a)) {
                min = Double.isNaN(min) ? a : Math.min(min, a);
                max = Double.isNaN(max) ? a : Math.max(max, a);
            }
        }
        return new Spread(runs, passes, min, max);
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
