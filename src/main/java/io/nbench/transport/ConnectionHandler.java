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

    /** The request with this id was handed to the kernel (only when {@link ClientSettings#notifyWritten()}). */
    void onWritten(long id);

    /** An error on this connection; the transport closes it afterwards if it cannot go on. */
    void onError(ErrorKind kind, String message);

    /** The connection is closed (by either side); no event follows. */
    void onClosed();
}
