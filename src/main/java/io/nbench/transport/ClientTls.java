package io.nbench.transport;

import java.security.cert.X509Certificate;
import java.util.List;

/**
 * TLS of a client ({@code nbench client --tls}): what it offers and whom it trusts. A client trusts a server only
 * when told: the certificates of {@code --tls-ca} (and then the server's certificate must name the host the
 * client connects to), or any certificate ({@code --tls-insecure}: no trust and no host name check).
 *
 * @param protocols  the protocols offered, e.g. TLSv1.3 and TLSv1.2, in the JDK's names
 * @param ciphers    the cipher suites offered, in IANA names; empty: the engine's defaults
 * @param trusted    the certificates trusted as issuers (or as the server's own); empty when {@code insecure}
 * @param insecure   trust any certificate and skip the host name check
 * @param serverName the host as the user named it ({@code --host}): sent as SNI and checked against the certificate
 * @param resumption {@code --tls-resumption}: offer the sessions of earlier connections to the server (the engines'
 *                   default, true), or make every handshake a full one (false)
 */
public record ClientTls(List<String> protocols, List<String> ciphers, List<X509Certificate> trusted, boolean insecure,
                        String serverName, boolean resumption) {

    /** With session resumption, the engines' default. */
    public ClientTls(List<String> protocols, List<String> ciphers, List<X509Certificate> trusted, boolean insecure,
                     String serverName) {
        this(protocols, ciphers, trusted, insecure, serverName, true);
    }

    public ClientTls {
        protocols = List.copyOf(protocols);
        ciphers = List.copyOf(ciphers);
        trusted = List.copyOf(trusted);
        if (insecure != trusted.isEmpty()) {
            throw new IllegalArgumentException("a TLS client trusts either given certificates or, insecure, any");
        }
    }

    /** What the client's effective configuration says about its TLS before a connection negotiates it. */
    public String describe() {
        return String.join(",", protocols) + (ciphers.isEmpty() ? "" : " ciphers " + String.join(",", ciphers))
                + (insecure ? ", trusting any certificate (--tls-insecure)"
                : ", trusting " + trusted.size() + " certificate(s) of --tls-ca for " + serverName)
                + (resumption ? "" : ", session resumption off (every handshake a full one)");
    }
}
