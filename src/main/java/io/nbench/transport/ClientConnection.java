package io.nbench.transport;

/** One client connection, as the engine drives it. */
public interface ClientConnection {

    /**
     * Encodes this connection's request with the given id and writes it. Never blocks waiting for the
     * peer to answer (a blocking socket transport may block while the kernel's send buffer is full).
     * Called from the engine's sender threads or, with the io driver, from inside a
     * {@link ConnectionHandler} callback on this connection's I/O thread. Must not allocate per call
     * beyond what the framework recycles.
     */
    void send(long id);

    /** Closes the connection; {@link ConnectionHandler#onClosed()} follows. */
    void close();
}
