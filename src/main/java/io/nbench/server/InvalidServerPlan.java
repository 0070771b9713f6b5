package io.nbench.server;

/**
 * A {@link ServerPlan} that breaks one of its rules ({@link ServerRules}); the message names the setting by
 * its command-line option and says how to fix it, and the CLI prints it unchanged as a usage error (exit 2).
 */
public final class InvalidServerPlan extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public InvalidServerPlan(String message) {
        super(message);
    }
}
