package io.nbench.transport;

/**
 * What a TLS connection negotiated, for the client's header and result document.
 *
 * @param engine   the TLS implementation, e.g. "jdk" or "openssl"
 * @param protocol the protocol, e.g. TLSv1.3
 * @param cipher   the cipher suite in IANA names, e.g. TLS_AES_256_GCM_SHA384
 */
public record TlsSession(String engine, String protocol, String cipher) {

    /** As the header prints it. */
    public String describe() {
        return protocol + ", " + cipher + " (" + engine + " engine)";
    }
}
