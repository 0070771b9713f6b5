package io.nbench.transport;

/**
 * What a server transport reports to nbench's server runtime. Called from I/O threads, so
 * implementations must be cheap and lock-free.
 */
public interface ServerEvents {

    void connectionOpened();

    void connectionClosed();

    /** One request decoded and its response (if any) written or queued. */
    void requestServed(int requestBytes, int responseBytes);

    /** A connection was closed for breaking the protocol; {@code message} is one line naming the problem. */
    void protocolError(String remote, String message);

    /** Bytes read that were echoed back ({@code --protocol echo}). */
    void echoed(int bytes);

    /** No-op sink, for tests and in-process use. */
    ServerEvents NONE = new ServerEvents() {
        @Override
        public void connectionOpened() {
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
