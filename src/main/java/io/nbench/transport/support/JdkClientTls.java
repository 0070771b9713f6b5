package io.nbench.transport.support;

import io.nbench.transport.ClientTls;
import java.io.IOException;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSession;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * A client on the JDK's TLS ({@code SSLSocket}, {@code SSLEngine}): the context each connection's engine comes from,
 * which decides whether it offers an earlier session ({@code --tls-resumption}), and whether its handshake resumed
 * one. Connection setup only, never per message.
 */
public final class JdkClientTls {

    private final ClientTls tls;
    private final ResumedHandshakes handshakes = new ResumedHandshakes();
    private final X509ExtendedTrustManager trust;
    /** Every connection's context with resumption: its session cache offers the sessions of earlier connections. */
    private final SSLContext shared;

    public JdkClientTls(ClientTls tls) throws IOException {
        this.tls = tls;
        this.trust = handshakes.watching(JdkTls.trust(tls));
        this.shared = JdkTls.client(trust);
    }

    public ClientTls settings() {
        return tls;
    }

    /**
     * The context of one connection: the shared one, or without resumption a new one. The JDK's client offers every
     * session its context cached for the same host and port, and has no switch to stop it (the cache has no off
     * size, and tickets cached after the handshake escape invalidating the session); a context of its own starts
     * with an empty cache. Making it costs microseconds, before the TCP connect: in the connect's time, never in the
     * handshake's.
     */
    public SSLContext forConnection() throws IOException {
        return tls.resumption() ? shared : JdkTls.client(trust);
    }

    /** The parameters of a connection's engine made from {@code context}. */
    public SSLParameters parameters(SSLContext context) {
        return JdkTls.clientParameters(context, tls);
    }

    /** A client engine of a new connection to this port (the host and port key the JDK's session cache). */
    public SSLEngine engine(int port) throws IOException {
        return JdkTls.clientEngine(forConnection(), tls, port);
    }

    /** After a connection's handshake: whether it resumed an earlier session. */
    public boolean resumed(SSLSession session) {
        return handshakes.resumed(session);
    }
}
