package io.nbench.transport.support;

import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Tells a client's resumed TLS handshakes from its full ones, on every engine, by the one thing only a full handshake
 * makes the client do: check the server's certificate. A resumed handshake (TLS 1.3 with a ticket's pre-shared key,
 * TLS 1.2 with a session id or ticket) carries no certificate, so the trust manager is not called. Neither the JDK's
 * {@code SSLSession} nor Netty's OpenSSL engine says publicly whether it resumed (both keep it package-private); the
 * trust manager, which the client hands every engine, is the hook they share.
 *
 * <p>Connection setup only, never per message: a session enters the set while its certificate is checked and
 * leaves it when its transport asks {@link #resumed} once the handshake is done.
 */
public final class ResumedHandshakes {

    /**
     * The handshakes (their sessions) whose certificate was checked and not yet asked about. By identity: Netty's
     * OpenSSL session hashes its id, which the end of the handshake changes.
     */
    private final Set<SSLSession> checked = Collections.synchronizedSet(Collections.newSetFromMap(
            new IdentityHashMap<>()));

    /** {@code trust}, noting every handshake whose certificate it checks (and accepts). */
    public X509ExtendedTrustManager watching(X509ExtendedTrustManager trust) {
        return new Watching(trust);
    }

    /**
     * After a connection's handshake: whether it resumed an earlier session, i.e. checked no certificate.
     *
     * @param session the connection's session ({@code getSession()} once the handshake is done)
     */
    public boolean resumed(SSLSession session) {
        return !checked.remove(session);
    }

    private final class Watching extends X509ExtendedTrustManager {
        private final X509ExtendedTrustManager trust;

        Watching(X509ExtendedTrustManager trust) {
            this.trust = trust;
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            trust.checkServerTrusted(chain, authType, socket);
            if (socket instanceof SSLSocket ssl && ssl.getHandshakeSession() != null) {
                checked.add(ssl.getHandshakeSession());
            }
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            trust.checkServerTrusted(chain, authType, engine);
            if (engine != null && engine.getHandshakeSession() != null) {
                checked.add(engine.getHandshakeSession());
            }
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            trust.checkServerTrusted(chain, authType);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            trust.checkClientTrusted(chain, authType, socket);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            trust.checkClientTrusted(chain, authType, engine);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            trust.checkClientTrusted(chain, authType);
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return trust.getAcceptedIssuers();
        }
    }
}
