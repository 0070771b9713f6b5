package io.nbench.transport.netty;

import io.nbench.transport.Availability;
import io.nbench.transport.ClientTls;
import io.nbench.transport.ServerTls;
import io.nbench.transport.TlsSession;
import io.nbench.transport.support.JdkTls;
import io.nbench.transport.support.ResumedHandshakes;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.OpenSslSessionContext;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import java.io.IOException;
import java.util.List;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSession;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Netty's TLS as its users set it up: an {@link SslContext} from {@link SslContextBuilder} and an {@link SslHandler}
 * first in every channel's pipeline, with the engine of {@code -O netty.tls-engine}: the JDK's {@code SSLEngine} or
 * OpenSSL (BoringSSL through netty-tcnative, statically linked, linux-x86_64).
 */
final class NettyTls {

    static final String ENGINE = "netty.tls-engine";
    static final List<String> ENGINES = List.of("jdk", "openssl");

    private NettyTls() {
    }

    /** Whether this engine can run here; OpenSSL's native library may be missing (another platform) or fail to load. */
    static Availability availability(String engine) {
        if (!engine.equals("openssl") || OpenSsl.isAvailable()) {
            return Availability.yes();
        }
        Throwable why = OpenSsl.unavailabilityCause();
        return Availability.no("-O " + ENGINE + "=openssl: OpenSSL is not available here ("
                + (why == null ? "unknown reason" : why.getClass().getSimpleName() + ": " + why.getMessage())
                + "; nbench bundles netty-tcnative's BoringSSL for linux-x86_64 only): use -O " + ENGINE + "=jdk");
    }

    /** One line for {@code nbench list}. */
    static String describeOpenSsl() {
        Availability a = availability("openssl");
        return ENGINE + "=openssl: " + (a.available() ? "available (" + OpenSsl.versionString() + ")"
                : "unavailable (" + a.reason() + ")");
    }

    static SslContext server(ServerTls tls, String engine) throws IOException {
        try {
            return SslContextBuilder.forServer(tls.key(), tls.chainArray())
                    .sslProvider(provider(engine))
                    .protocols(tls.protocols())
                    .ciphers(tls.ciphers().isEmpty() ? null : tls.ciphers())
                    .build();
        } catch (SSLException | RuntimeException e) {
            throw new IOException("cannot set up netty's TLS (" + engine + " engine): " + e.getMessage(), e);
        }
    }

    /**
     * A client's context.
     *
     * @param trust whom it trusts ({@link JdkTls#trust}), as {@link ResumedHandshakes} watches it
     */
    static SslContext client(ClientTls tls, String engine, X509ExtendedTrustManager trust) throws IOException {
        try {
            SslContext context = SslContextBuilder.forClient()
                    .sslProvider(provider(engine))
                    .protocols(tls.protocols())
                    .ciphers(tls.ciphers().isEmpty() ? null : tls.ciphers())
                    .trustManager(trust)
                    // Netty 4.2 checks the host name by default; --tls-insecure is the one way to skip it.
                    .endpointIdentificationAlgorithm(tls.insecure() ? null : "HTTPS")
                    .build();
            if (!tls.resumption() && context.sessionContext() instanceof OpenSslSessionContext openSsl) {
                // OpenSSL's client cache is Netty's own, with a switch; the JDK engine's has none (see NettyClient).
                openSsl.setSessionCacheEnabled(false);
            }
            return context;
        } catch (SSLException | RuntimeException e) {
            throw new IOException("cannot set up netty's TLS (" + engine + " engine): " + e.getMessage(), e);
        }
    }

    /** What a completed handshake negotiated. */
    static TlsSession session(SslHandler handler, String engine) {
        SSLSession s = handler.engine().getSession();
        return new TlsSession(engine, s.getProtocol(), s.getCipherSuite());
    }

    private static SslProvider provider(String engine) {
        return engine.equals("openssl") ? SslProvider.OPENSSL : SslProvider.JDK;
    }
}
