package io.nbench.transport;

import java.io.IOException;

/**
 * A connect or bind that failed, with its kind as a value: the engine retries a refused first connection,
 * the CLI hints at a missing server or a port in use, by {@link #kind()}, never by searching message text.
 * Every transport throws it from {@link ClientTransport#connect} and {@link Transport#startServer}
 * (built by {@code transport.support.Failures} from whatever its library reports).
 */
public final class TransportFailure extends IOException {

    private static final long serialVersionUID = 1L;

    /** What went wrong, as far as the OS told. */
    public enum Kind {
        /** Nothing listens at the address (the peer's kernel answered with a reset). */
        REFUSED,
        /** The connect did not complete within the connect timeout. */
        TIMED_OUT,
        /** No route to the host or network. */
        UNREACHABLE,
        /** A server cannot listen: another socket holds the address and port. */
        ADDRESS_IN_USE,
        /** The TCP connection was made but its TLS handshake failed; the message says why and what to change. */
        HANDSHAKE,
        /**
         * The TCP connection was made but the server answered the TLS ClientHello in plain text: it runs without TLS.
         * The message says so; the caller, who knows the protocol, adds the fix (http://, or no --tls).
         */
        PLAIN_TEXT,
        /** Anything else; the message says what. */
        OTHER
    }

    private final Kind kind;

    public TransportFailure(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
