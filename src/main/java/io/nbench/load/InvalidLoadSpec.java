package io.nbench.load;

/**
 * A workload whose settings contradict each other or exceed what nbench counts. The message is one line
 * naming the options (as the command line spells them) and the fix, so the CLI prints it as a usage error
 * and a library caller gets the same words.
 */
public final class InvalidLoadSpec extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public InvalidLoadSpec(String message) {
        super(message);
    }
}
