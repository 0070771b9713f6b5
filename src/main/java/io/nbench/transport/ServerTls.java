package io.nbench.transport;

import io.nbench.units.Durations;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * TLS of a server ({@code nbench server --tls}): what it offers and what it proves itself with. The key stays in
 * memory: nbench never writes it to disk or prints it ({@link #toString()} leaves it out).
 *
 * @param protocols the protocols offered, e.g. TLSv1.3 and TLSv1.2, in the JDK's names
 * @param ciphers   the cipher suites offered, in IANA names; empty: the engine's defaults
 * @param key       the private key of the first certificate
 * @param chain     the certificate, then the certificates that issued it, if any
 * @param origin    where the key and certificate come from, e.g. "self-signed in memory" or the PEM file names
 * @param handshakeTimeout {@code --tls-handshake-timeout}: a connection whose handshake is not over this long after
 *                  its accept is closed and counted as a protocol error
 */
public record ServerTls(List<String> protocols, List<String> ciphers, PrivateKey key, List<X509Certificate> chain,
                        String origin, Duration handshakeTimeout) {

    /** {@code --tls-handshake-timeout}'s default. */
    public static final Duration DEFAULT_HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);

    /** With the default handshake timeout. */
    public ServerTls(List<String> protocols, List<String> ciphers, PrivateKey key, List<X509Certificate> chain,
                     String origin) {
        this(protocols, ciphers, key, chain, origin, DEFAULT_HANDSHAKE_TIMEOUT);
    }

    public ServerTls {
        protocols = List.copyOf(protocols);
        ciphers = List.copyOf(ciphers);
        Objects.requireNonNull(key, "key");
        chain = List.copyOf(chain);
        if (handshakeTimeout == null) {
            handshakeTimeout = DEFAULT_HANDSHAKE_TIMEOUT;
        }
        if (handshakeTimeout.isNegative() || handshakeTimeout.isZero()) {
            throw new IllegalArgumentException("a TLS handshake timeout must be positive");
        }
        if (chain.isEmpty()) {
            throw new IllegalArgumentException("a server's TLS needs its certificate");
        }
    }

    /** The certificate chain as an array, as the JDK's and Netty's key managers take it. */
    public X509Certificate[] chainArray() {
        return chain.toArray(new X509Certificate[0]);
    }

    /** What the server's effective configuration says about its TLS (never the key). */
    public String describe() {
        return String.join(",", protocols) + (ciphers.isEmpty() ? "" : " ciphers " + String.join(",", ciphers))
                + ", certificate " + origin + ", handshake timeout " + Durations.format(handshakeTimeout);
    }

    @Override
    public String toString() { // a record would print the key
        return "ServerTls[" + describe() + "]";
    }
}
