package io.nbench.client.output;

import io.nbench.load.RunListener;
import io.nbench.report.CombinationResult;
import io.nbench.report.SweepResult;
import io.nbench.report.json.IntervalDoc;
import java.util.List;

/**
 * One thing the client writes besides the engine's work: a {@code --format} on stdout, the progress line, a
 * result file. The client calls every output it opened, in the registry's order, at each step of a run:
 * {@link #start} before a combination's first iteration, the returned listener for its iterations and
 * intervals, {@link #summary} once it is judged, then after the last combination {@link #writeFiles} and
 * {@link #finish}. A new output is one class with a {@link Factory} and one line in {@link OutputRegistry}.
 */
public interface Output {

    /**
     * A combination starts (connected, its effective settings known): print its header. The listener returned
     * hears its iterations and intervals on the engine's coordinator thread, between iterations, never per
     * message.
     */
    default RunListener start(CombinationStart start) {
        return RunListener.NONE;
    }

    /**
     * One second of the combination ended: its figures as the result document keeps them (its
     * {@code combinations[].intervals}), computed once for every output, on the coordinator thread.
     */
    default void interval(IntervalDoc figures) {
    }

    /** The combination ended and was judged: its status, reasons and thresholds are final. */
    default void summary(CombinationResult result) {
    }

    /**
     * After the last combination, before anything else is printed: write this output's files, adding a
     * one-line reason to {@code writeErrors} for each that could not be written (the run then ends ABORTED).
     */
    default void writeFiles(SweepResult result, List<String> writeErrors) {
    }

    /**
     * After every file: the last words on stdout. {@code last} is the run's result with the write errors folded
     * into its status and exit code; {@code writeErrors} are those errors, in order.
     */
    default void finish(SweepResult last, List<String> writeErrors) {
    }

    /** The run ended another way than {@link #finish} (an exception): drop what is incomplete. */
    default void abandon() {
    }

    /** Opens an output for one run, checking before anything runs what a long run must not find out late. */
    @FunctionalInterface
    interface Factory {
        /**
         * @return the output, or null when the user's settings leave it off
         * @throws CannotWrite a file it would write cannot be written (exit 1)
         * @throws IllegalArgumentException the settings contradict each other (a usage error, exit 2)
         */
        Output open(OutputContext context) throws CannotWrite;
    }
}
