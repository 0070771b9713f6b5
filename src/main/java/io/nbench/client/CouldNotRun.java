package io.nbench.client;

/**
 * The run cannot happen here (a transport not available, an unknown host); the message names the cause and
 * the fix. Exit code 1.
 */
public final class CouldNotRun extends Exception {
    private static final long serialVersionUID = 1L;

    public CouldNotRun(String message) {
        super(message);
    }
}
