package io.nbench.transport;

/**
 * The events a client connection reports to the engine. Implemented by the engine, which owns all
 * timing: transports call these as soon as the event happens, on whatever thread observed it.
 */
public interface ConnectionHandler {

    /** Id passed to {@link #onResponse} by echo-protocol transports, which cannot know a response's id. */
    long UNKNOWN_ID = -1L;

    /**
     * A complete response. {@code payload} is valid only during the call.
     *
     * @param id      the response's id (framed) or {@link #UNKNOWN_ID} (echo)
     * @param status  {@link io.nbench.protocol.Framed#STATUS_OK} or {@link io.nbench.protocol.Framed#STATUS_REJECTED}
     * @param payload the response payload
     */
    void onResponse(long id, int status, PayloadView payload);

    /**
     * {@link #onResponse(long, int, PayloadView)} of a response that took {@code wireBytes} bytes on the wire, all
     * of it (header and payload; for HTTP the status line, headers and body): what the engine counts as received.
     * Every transport of nbench calls this one; the three-argument call counts the payload's length alone.
     */
    default void onResponse(long id, int status, PayloadView payload, int wireBytes) {
        onResponse(id, status, payload);
    }

    /**
     * Optional, for transports that read many responses at once: the responses reported from now until
     * {@link #onReadEnd} (on the same thread, with no other connection's events in between) all came
     * from one read, so they all completed when that read returned. The engine then reads its clock
     * once per read instead of once per response, as the C reference client does: at millions of
     * responses per second a clock reading per response is a few percent of the I/O thread's time.
     * A transport that does not call these gets a clock reading per response.
     */
    default void onReadStart() {
    }

    /**
     * Ends what {@link #onReadStart} began: always (call it in a {@code finally}, also when decoding the
     * read failed), on the thread that called {@link #onReadStart}, and before that thread blocks or
     * waits for anything. The engine keeps its statistics' interval open for the whole read (one
     * critical section per read instead of one per response), so an interval boundary waits for
     * the read to end: a read that never ends would hold up the run.
     */
    default void onReadEnd() {
    }

    /** The request with this id was handed to the kernel (only when {@link ClientSettings#notifyWritten()}). */
    void onWritten(long id);

    /** An error on this connection; the transport closes it afterwards if it cannot go on. */
    void onError(ErrorKind kind, String message);

    /**
     * The peer sent bytes that are no response of this protocol (a frame header out of bounds, an unknown
     * status); the transport closes the connection after this call. {@code head} is the start of what the
     * peer sent (at most {@link io.nbench.protocol.PeerBytes#HEAD} bytes, from the bad frame on), so the
     * engine can say what the peer is. By default just a protocol error.
     */
    default void onProtocolError(String reason, byte[] head) {
        onError(ErrorKind.PROTOCOL, reason);
    }

    /**
     * With TLS: the TCP connection is established and the TLS handshake begins. The one event called while
     * {@link ClientTransport#connect} is still running (on the connecting thread or an I/O thread, before connect
     * returns): the engine, which owns all timing, reads its clock here, and the time from here until connect
     * returns is the handshake's. A transport without TLS never calls it.
     */
    default void onHandshakeStart() {
    }

    /**
     * With TLS: the handshake {@link #onHandshakeStart} began resumed an earlier session (no certificate, no full
     * key exchange: what makes a reconnect's handshake cheap). Called after it, before {@link ClientTransport#connect}
     * returns, and only then; a full handshake has no event of its own. Every transport with TLS reports it.
     */
    default void onHandshakeResumed() {
    }

    /** The connection is closed (by either side); no event follows. */
    void onClosed();

    /**
     * For a transport with a thread of each connection's own (a reader per connection, as blocking and vthreads
     * have): called on that thread as the last thing it does, after {@link #onClosed}, outside any read. The engine
     * then hands what it kept for the thread (its statistics recorder) to the next new thread as it is: without
     * it, every reconnect of {@code --requests-per-connection 1} would make a recorder, thousands a second, until
     * the next harvest noticed their threads had ended. A transport whose threads serve many connections never
     * calls it.
     */
    default void onReaderExit() {
    }
}
