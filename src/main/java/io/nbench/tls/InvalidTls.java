package io.nbench.tls;

/** TLS settings that cannot work (an unknown protocol, an unreadable PEM file); the message names the fix. */
public final class InvalidTls extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public InvalidTls(String message) {
        super(message);
    }
}
