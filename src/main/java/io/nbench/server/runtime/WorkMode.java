package io.nbench.server.runtime;

import java.util.Locale;

/** How {@code --work} spends its time. */
public enum WorkMode {
    /** Blocks the thread, as a handler waiting on a database or a remote call does. */
    SLEEP,
    /** Keeps the core busy, as a handler computing does. */
    SPIN,
    /**
     * Holds no thread: the response is completed that long after its request was decoded, from a timer, as a
     * reactive handler returning {@code Mono.delay(D)} does (a non-blocking call to a slow service).
     */
    DELAY;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
