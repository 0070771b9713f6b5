package io.nbench.client;

/**
 * A client plan whose values do not go together (a transport or {@code -O} key that does not exist, a workload
 * the rules refuse, more memory than the JVM has...): the message names the setting by its command-line option
 * and the fix. The command line's usage error, exit 2.
 */
public final class InvalidClientPlan extends Exception {
    private static final long serialVersionUID = 1L;

    public InvalidClientPlan(String message) {
        super(message);
    }
}
