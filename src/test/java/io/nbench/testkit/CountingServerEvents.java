package io.nbench.testkit;

import io.nbench.transport.ServerEvents;

/**
 * Server events counted for a decoder driven directly by a test (no server around it): the bytes of
 * the requests answered (or served in one event) and of their responses, and the last protocol error. Single-threaded, as such a
 * decoder is.
 */
public final class CountingServerEvents implements ServerEvents {
    public long requestBytes;
    public long responseBytes;
    public String error;

    @Override
    public boolean connectionOpened() {
        return true;
    }

    @Override
    public void connectionClosed() {
    }

    @Override
    public void requestServed(int request, int response) {
        requestBytes += request;
        responseBytes += response;
    }

    /** nbench's transports answer a decoded request in two events: counted here, once the socket took it. */
    @Override
    public void requestAnswered(int request, int response) {
        requestBytes += request;
        responseBytes += response;
    }

    @Override
    public void protocolError(String remote, String message) {
        error = message;
    }

    @Override
    public void echoed(int bytes) {
    }
}
