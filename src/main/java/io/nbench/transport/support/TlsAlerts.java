package io.nbench.transport.support;

/**
 * TLS alert records a server writes as they are, outside its engine: where a library closes on a plain-text client
 * without a word (Netty's SslHandler, MINA's SslFilter), the server says what the JDK's SSLEngine says. A client
 * reading the alert knows it met a TLS server and can say "add --tls" (nbench's clients do); a bare close says
 * nothing.
 */
public final class TlsAlerts {

    /**
     * A fatal unexpected_message alert record (TLS 1.2's record version, as TLS 1.3 sends its alerts too), what the
     * JDK's SSLEngine answers a plain-text client with.
     */
    private static final byte[] UNEXPECTED_MESSAGE = {0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x0a};

    private TlsAlerts() {
    }

    /** A fresh copy of the unexpected_message alert record. */
    public static byte[] unexpectedMessage() {
        return UNEXPECTED_MESSAGE.clone();
    }
}
