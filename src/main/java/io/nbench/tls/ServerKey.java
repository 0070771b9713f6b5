package io.nbench.tls;

import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;

/**
 * A server's private key, its certificate chain and where they come from. Kept in memory only; {@link #toString()}
 * leaves the key out.
 */
public record ServerKey(PrivateKey key, List<X509Certificate> chain, String origin) {

    public ServerKey {
        chain = List.copyOf(chain);
    }

    @Override
    public String toString() {
        return "ServerKey[" + origin + "]";
    }
}
