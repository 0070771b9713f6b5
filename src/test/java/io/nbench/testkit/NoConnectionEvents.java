package io.nbench.testkit;

import io.nbench.transport.ConnectionHandler;
import io.nbench.transport.ErrorKind;
import io.nbench.transport.PayloadView;

/** A connection handler that ignores every event: for tests that drive a transport's connect or close alone. */
public class NoConnectionEvents implements ConnectionHandler {

    @Override
    public void onResponse(long id, int status, PayloadView payload) {
    }

    @Override
    public void onWritten(long id) {
    }

    @Override
    public void onError(ErrorKind kind, String message) {
    }

    @Override
    public void onClosed() {
    }
}
