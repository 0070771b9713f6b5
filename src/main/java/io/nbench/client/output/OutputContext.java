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
 * @param combinations how many combinations the sweep has
 * @param record       the run's id, arguments and per-second figures, for the result document
 */
public record OutputContext(OutputSettings settings, PrintWriter out, PrintWriter err, List<String> keys,
                            int combinations, RunRecord record) {

    /** More than one combination: each is announced and the sweep table ends the text output. */
    public boolean sweep() {
        return combinations > 1;
    }
}
