package io.nbench.load;

import io.nbench.stats.IterationResult;

/** Progress of a run, for reporters that print as results come in. */
public interface RunListener {

    /** Every connection is open; {@code transportConfig} is what the client transport really uses. */
    default void onConnected(int connections) {
    }

    default void onIteration(IterationResult iteration) {
    }

    RunListener NONE = new RunListener() {
    };
}
