package io.nbench.client.output;

import java.io.PrintWriter;
import java.util.List;

/**
 * What every output of one run shares.
 *
 * @param settings     what the user chose
 * @param out          stdout, for the chosen format
 * @param err          stderr: problems, the progress line
 * @param keys         the sweep's combination keys, in column order
 * @param combinations how many combinations the sweep has; {@link #SEARCH} when each is decided as the run goes
 * @param record       the run's id, arguments and per-second figures, for the result document
 * @param plannedAfterNanos the time planned after this client's run ({@code nbench run}'s later rounds), which the
 *                     progress line's estimate of what is left adds; 0 for a client run alone
 * @param rateSweep    whether the combinations are a {@code --rate-sweep}'s steps: each open-loop step a point of
 *                     the curve of latency against load, judged as a capacity search judges its steps
 */
public record OutputContext(OutputSettings settings, PrintWriter out, PrintWriter err, List<String> keys,
                            int combinations, RunRecord record, long plannedAfterNanos, boolean rateSweep) {

    /** Nothing planned after this client's run (a client run alone), not a rate sweep. */
    public OutputContext(OutputSettings settings, PrintWriter out, PrintWriter err, List<String> keys,
                         int combinations, RunRecord record) {
        this(settings, out, err, keys, combinations, record, 0, false);
    }

    /** The same, with {@code plannedAfterNanos} planned after this client's run ({@code nbench run}'s later rounds). */
    public OutputContext plannedAfter(long nanos) {
        return new OutputContext(settings, out, err, keys, combinations, record, nanos, rateSweep);
    }

    /** The same, its combinations a {@code --rate-sweep}'s steps when {@code sweep}. */
    public OutputContext rateSweep(boolean sweep) {
        return new OutputContext(settings, out, err, keys, combinations, record, plannedAfterNanos, sweep);
    }

    /** Whether each open-loop combination is a point of a curve (a capacity search's or a rate sweep's steps). */
    public boolean curve() {
        return search() || rateSweep;
    }

    /** The combinations of a search (a capacity search's steps): not known ahead, each decided after the last. */
    public static final int SEARCH = 0;

    /** Whether the combinations are a search's steps, each printed as one line rather than a block. */
    public boolean search() {
        return combinations == SEARCH;
    }

    /** More than one combination (or not known ahead): each is announced and a table ends the text output. */
    public boolean sweep() {
        return combinations != 1;
    }
}
