package io.nbench.server;

import java.io.IOException;

/**
 * A {@link BenchServer} that could not start (its port taken, no descriptor left, the monitor's port taken);
 * the message says what and how to fix it, and the CLI prints it after "nbench server: " (exit 1).
 */
public final class CouldNotStart extends IOException {

    private static final long serialVersionUID = 1L;

    public CouldNotStart(String message, Throwable cause) {
        super(message, cause);
    }
}
