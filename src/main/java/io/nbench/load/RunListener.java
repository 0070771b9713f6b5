package io.nbench.load;

import io.nbench.stats.IntervalResult;
import io.nbench.stats.IterationResult;

/** Progress of a run, for reporters that print as results come in. */
public interface RunListener {

    /** Every connection is open. */
    default void onConnected(int connections) {
    }

    /**
     * The first iteration starts now; interval and iteration times are relative to this wall-clock instant
     * (ms since the epoch). Lets live writers such as the HdrHistogram interval log stamp absolute times.
     */
    default void onStarted(long startEpochMillis) {
    }

    default void onIteration(IterationResult iteration) {
    }

    /** A slice of at most one second ended (every iteration is cut into such slices; the last may be shorter). */
    default void onInterval(IntervalResult interval) {
    }

    /**
     * An echo connection without message ids was closed and reopened after a timeout (first-in first-out
     * matching cannot survive a lost reply). Called on the engine's watchdog thread.
     */
    default void onReconnect() {
    }

    RunListener NONE = new RunListener() {
    };
}
