package io.nbench.load;

/** A run could not start or go on (cannot connect, server gone); the message names cause and fix. */
public final class RunFailure extends Exception {

    private static final long serialVersionUID = 1L;

    public RunFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
