package io.nbench.server.runtime;

/** How {@code --work} spends its time. */
public enum WorkMode {
    /** Blocks the thread, as a handler waiting on a database or a remote call does. */
    SLEEP,
    /** Keeps the core busy, as a handler computing does. */
    SPIN;

    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
