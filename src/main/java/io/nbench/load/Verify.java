package io.nbench.load;

import java.util.Locale;

/**
 * How much of each response payload the client checks against what it sent. {@code sample} always
 * checks the length and the id stamp, and every byte of one message in 64.
 */
public enum Verify {
    NONE, SAMPLE, FULL;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
