package io.nbench.transport.netty;

import io.nbench.transport.ConnectionHandler;
import io.nbench.transport.ErrorKind;
import io.nbench.transport.PayloadView;

/**
 * The handler of a test that drives one netty client connection on an {@code EmbeddedChannel} and only
 * looks at its responses: written events and the close are not its concern, and any error fails it.
 */
@FunctionalInterface
interface ResponsesOnly extends ConnectionHandler {

    @Override
    default void onWritten(long id) {
    }

    @Override
    default void onError(ErrorKind kind, String message) {
        throw new AssertionError(message);
    }

    @Override
    default void onClosed() {
    }

    /** Makes a lambda over {@link #onResponse} a handler. */
    static ConnectionHandler of(ResponsesOnly onResponse) {
        return onResponse;
    }

    @Override
    void onResponse(long id, int status, PayloadView payload);
}
