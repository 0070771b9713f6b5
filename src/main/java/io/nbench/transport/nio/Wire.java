package io.nbench.transport.nio;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * What the connections read from and write to: the socket channel itself ({@link PlainWire}) or TLS over it
 * ({@link TlsWire}). The connections keep their own buffers and backpressure; a wire may hold bytes beneath them
 * (TLS records not yet written, or read but not yet given out), which {@link #flushed} and {@link #buffered} say.
 */
interface Wire {

    /** Reads what is available into {@code dst}: its byte count, 0 if nothing yet, -1 at the end of the stream. */
    int read(ByteBuffer dst) throws IOException;

    /** Takes what it can of {@code src} (an empty one only pushes what it holds): the bytes taken. */
    int write(ByteBuffer src) throws IOException;

    /** Nothing taken by {@link #write} is still waiting for the socket. */
    boolean flushed();

    /**
     * Bytes already read from the socket are waiting to be given out: the selector will not report them, so the
     * reader calls {@link #read} again before waiting for OP_READ.
     */
    boolean buffered();

    /** A TLS wire whose first handshake is not over yet (--tls-handshake-timeout times it); plain: never. */
    default boolean handshaking() {
        return false;
    }

    /** Before the channel closes: says goodbye if the protocol has a way to (TLS's close_notify). Best effort. */
    void closing();
}
