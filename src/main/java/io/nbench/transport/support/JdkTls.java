package io.nbench.transport.support;

import io.nbench.transport.ClientTls;
import io.nbench.transport.ServerTls;
import java.io.IOException;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The JDK's TLS (JSSE) set up from {@link ServerTls} and {@link ClientTls}: the one place the transports on the
 * JDK's {@code SSLSocket} and {@code SSLEngine} get their contexts and parameters from, so every transport offers
 * the same protocols and checks the same things. Connection setup only, never per message.
 */
public final class JdkTls {

    /** One source of randomness for every client context (a client without resumption makes one per connection). */
    private static final SecureRandom RANDOM = new SecureRandom();

    private JdkTls() {
    }

    /** A context whose key manager holds the server's key and chain (in a key store that lives in memory only). */
    public static SSLContext server(ServerTls tls) throws IOException {
        try {
            char[] password = new char[0]; // the store never leaves memory: a password would protect nothing
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry("nbench", tls.key(), password, tls.chainArray());
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(store, password);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(kmf.getKeyManagers(), null, new SecureRandom());
            return context;
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot set up TLS with this key and certificate: " + e.getMessage(), e);
        }
    }

    /** A context that trusts {@link ClientTls#trusted()}, or any certificate when insecure. */
    public static SSLContext client(ClientTls tls) throws IOException {
        return client(trust(tls));
    }

    /**
     * A context that trusts {@link ClientTls#trusted()}, or any certificate when insecure, through {@code trust}.
     *
     * @param trust the client's trust manager ({@link #trust}, as {@link ResumedHandshakes} watches it)
     */
    static SSLContext client(X509ExtendedTrustManager trust) throws IOException {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {trust}, RANDOM);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot set up TLS with these certificates: " + e.getMessage(), e);
        }
    }

    /** The trust manager of {@link ClientTls}: its certificates', or one that accepts any. */
    public static X509ExtendedTrustManager trust(ClientTls tls) throws IOException {
        if (tls.insecure()) {
            return new TrustAny();
        }
        try {
            for (TrustManager m : trustFactory(tls.trusted()).getTrustManagers()) {
                if (m instanceof X509ExtendedTrustManager x509) {
                    return x509;
                }
            }
            throw new IOException("this JDK has no X.509 trust manager");
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot set up TLS with these certificates: " + e.getMessage(), e);
        }
    }

    /** A trust manager factory for exactly these certificates (not the JDK's cacerts). */
    public static TrustManagerFactory trustFactory(List<X509Certificate> trusted) throws GeneralSecurityException {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            for (int i = 0; i < trusted.size(); i++) {
                store.setCertificateEntry("ca-" + i, trusted.get(i));
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(store);
            return tmf;
        } catch (IOException e) { // load(null) reads nothing
            throw new GeneralSecurityException(e);
        }
    }

    /** The server's protocols and ciphers. */
    public static SSLParameters serverParameters(SSLContext context, ServerTls tls) {
        return parameters(context, tls.protocols(), tls.ciphers());
    }

    /**
     * The client's protocols and ciphers, the server name it sends (SNI, for a host name) and, unless insecure, the
     * check that the server's certificate names the host ({@code HTTPS} endpoint identification, RFC 2818).
     */
    public static SSLParameters clientParameters(SSLContext context, ClientTls tls) {
        SSLParameters p = parameters(context, tls.protocols(), tls.ciphers());
        if (!tls.insecure()) {
            p.setEndpointIdentificationAlgorithm("HTTPS");
        }
        if (!isAddress(tls.serverName())) {
            p.setServerNames(List.of(new SNIHostName(tls.serverName())));
        }
        return p;
    }

    /** A client engine for this peer (the host and port let the JDK resume sessions and check the name). */
    public static SSLEngine clientEngine(SSLContext context, ClientTls tls, int port) {
        SSLEngine engine = context.createSSLEngine(tls.serverName(), port);
        engine.setUseClientMode(true);
        engine.setSSLParameters(clientParameters(context, tls));
        return engine;
    }

    private static SSLParameters parameters(SSLContext context, List<String> protocols, List<String> ciphers) {
        SSLParameters p = context.getDefaultSSLParameters();
        p.setProtocols(protocols.toArray(new String[0]));
        if (!ciphers.isEmpty()) {
            p.setCipherSuites(ciphers.toArray(new String[0]));
        }
        return p;
    }

    /**
     * What a server's log says of a handshake the JDK's TLS failed: a plain-text client named as such, with the fix;
     * else the JDK's reason (nothing in common, a client that did not trust the certificate and said so).
     */
    public static String serverFailure(SSLException e) {
        String m = String.valueOf(e.getMessage());
        if (plainText(e)) {
            return "not TLS (" + m + "): this server runs with --tls, so clients need --tls too";
        }
        return "TLS handshake failed: " + m;
    }

    /** Whether a server's engine failed because the client sent something that is not TLS. */
    public static boolean plainText(SSLException e) {
        String m = String.valueOf(e.getMessage());
        return m.contains("Unsupported or unrecognized SSL message") || m.contains("plaintext connection");
    }

    /** Whether {@code host} is an IP address literal (no DNS lookup), which SNI may not carry. */
    public static boolean isAddress(String host) {
        return host.indexOf(':') >= 0 || host.matches("[0-9.]+");
    }

    /** {@code --tls-insecure}: any certificate, any host name. For benchmarks against a self-signed server only. */
    private static final class TrustAny extends X509ExtendedTrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
