package io.nbench.transport;

/**
 * What a server transport reports to nbench's server runtime. Called from I/O threads, so
 * implementations must be cheap and lock-free.
 */
public interface ServerEvents {

    /**
     * A connection was accepted. Returns false when the server already serves as many as it may
     * ({@code --max-connections}): the transport then closes it at once and reports nothing more of it
     * (no {@link #connectionClosed}). Every connection this accepted is reported closed exactly once.
     */
    boolean connectionOpened();

    void connectionClosed();

    /**
     * One request received and answered in one event (its response, if any, handed to the socket). nbench's
     * transports report {@link #requestReceived} and {@link #requestAnswered} instead, since a response counts
     * as answered only once the socket took its bytes, which comes after its decode.
     */
    void requestServed(int requestBytes, int responseBytes);

    /**
     * A request decoded, to be answered once its response leaves (on its I/O thread when the socket took the
     * bytes of its batch, or later on nbench's business pool): received now, its bytes counted as read now. Exactly one of {@link #requestAnswered}, {@link #requestRejected} or
     * {@link #requestsDropped} follows for it, so that every request received is accounted for.
     */
    default void requestReceived(int requestBytes) {
    }

    /**
     * A request reported by {@link #requestReceived} was answered. Answered on its I/O thread: its response's
     * bytes were handed to the socket (the kernel took them, or the framework reported them written); a response
     * still queued when its connection closes is dropped, never answered. From nbench's business pool, the delay
     * timer or a framework's executor: its response handed to the transport's write path.
     */
    default void requestAnswered(int requestBytes, int responseBytes) {
    }

    /**
     * A request reported by {@link #requestReceived} that the business pool could not take (its queue full
     * and every thread busy): it was answered with its protocol's rejection
     * ({@link io.nbench.protocol.Protocol#rejectedResponse}: framed's rejected frame, HTTP's 503;
     * {@code responseBytes} on the wire).
     */
    default void requestRejected(int responseBytes) {
    }

    /**
     * Requests reported by {@link #requestReceived} that will never be answered: their connection closed
     * first (the peer went away, {@code --idle-timeout}, a protocol error, or the server stopping).
     */
    default void requestsDropped(int count) {
    }

    /**
     * How long one request waited in the business pool's queue: from its hand-off by the I/O thread to a
     * pool thread taking it. Reported only when requests are offloaded ({@code --executor-threads}).
     */
    default void queueWait(long nanos) {
    }

    /**
     * One request's processing time, measured by nbench's server runtime (transports take no timestamps):
     * from its frame decoded to its response handed to the kernel, including queue wait and
     * {@code --work}. Reported for every served request of the framed protocol.
     */
    default void processed(long nanos) {
    }

    /** A connection was closed for breaking the protocol; {@code message} is one line naming the problem. */
    void protocolError(String remote, String message);

    /**
     * The protocol's answer to what it refuses (HTTP's 400, 413 or 431; the framed server's 400 to an HTTP
     * request) was handed to the write path ahead of the close: {@code responseBytes} on the wire, counted as
     * bytes out, since the peer receives them (ab counts them in its "Total transferred"). It answers no
     * request: {@link #protocolError} counts the refusal.
     */
    default void refusalAnswered(int responseBytes) {
    }

    /** Bytes read that were echoed back ({@code --protocol echo}). */
    void echoed(int bytes);

    /**
     * Something went wrong that the server survives, e.g. {@code accept} failing with "Too many open
     * files": logged at most once per interval per {@code cause} (a short key such as "accept"), with
     * {@code message} naming the problem and the fix. The transport itself backs off and goes on.
     */
    default void trouble(String cause, String message) {
    }

    /**
     * The server cannot go on (an OutOfMemoryError, say, caught by a framework's handler instead of
     * killing its thread). The command-line server exits 1 with one line; tests may record it.
     */
    default void fatal(Throwable cause) {
    }

    /** A connection was closed by {@code --idle-timeout}. */
    default void idleClosed() {
    }

    /** No-op sink, for tests and in-process use. */
    ServerEvents NONE = new ServerEvents() {
        @Override
        public boolean connectionOpened() {
            return true;
        }

        @Override
        public void connectionClosed() {
        }

        @Override
        public void requestServed(int requestBytes, int responseBytes) {
        }

        @Override
        public void protocolError(String remote, String message) {
        }

        @Override
        public void echoed(int bytes) {
        }
    };
}
