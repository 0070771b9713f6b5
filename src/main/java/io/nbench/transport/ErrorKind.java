package io.nbench.transport;

import java.util.Locale;

/** Error classes counted separately in every result. */
public enum ErrorKind {
    /** Could not connect, or a reconnect failed. */
    CONNECT,
    /** Reading failed or the peer closed with requests outstanding. */
    READ,
    /** Writing failed. */
    WRITE,
    /** No response within {@code --timeout}. */
    TIMEOUT,
    /** The peer broke the wire protocol (bad frame, unknown id). */
    PROTOCOL,
    /** The server answered with status "rejected" (its executor queue was full). */
    REJECTED,
    /** A response payload differed from what was sent ({@code --verify}). */
    INTEGRITY,
    /** The server answered with a status that is not a success (HTTP: not 2xx; counted by code too). */
    STATUS;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
