package io.nbench.load;

/**
 * Why a run stopped before its end. The engine decides the cause where it sees it (a timeout, a frame,
 * a closed connection), so callers branch on this, never on the wording of the message.
 */
public enum AbortCause {
    /** SIGINT/SIGTERM. */
    INTERRUPTED,
    /** No response on any connection for {@code --timeout} while messages were timing out: a stalled or silent peer. */
    STALLED,
    /** Errors that say the peer is not answering (timeout, read, write, connect) went past {@code --max-errors}. */
    TOO_MANY_ERRORS,
    /** The peer echoes the framed requests back: it is an echo server, the client should use {@code --protocol echo}. */
    ECHO_PEER,
    /** The peer sent bytes that are not this protocol's responses (an HTTP server, another service). */
    FOREIGN_PEER,
    /**
     * The server sent a response no request asked for (it answered a request twice, or before it was sent): without
     * ids every later response would be credited to the wrong request, so nothing more is measured.
     */
    UNSOLICITED_RESPONSE,
    /** The peer closed every connection right after a request, before any answer: it refuses what was sent. */
    REFUSED_REQUEST,
    /** Every connection was closed by the server after it had answered: it died or was stopped. */
    CONNECTIONS_CLOSED,
    /** Responses still outstanding long after the last send. */
    OUTSTANDING,
    /** A thread of nbench's own failed. */
    INTERNAL
}
