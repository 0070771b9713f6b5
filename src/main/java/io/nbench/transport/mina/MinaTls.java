package io.nbench.transport.mina;

import io.nbench.transport.ClientTls;
import io.nbench.transport.ServerTls;
import io.nbench.transport.TlsSession;
import io.nbench.transport.support.Failures;
import io.nbench.transport.support.JdkClientTls;
import io.nbench.transport.support.JdkTls;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSession;
import org.apache.mina.core.session.AttributeKey;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.filter.ssl.SslFilter;

/**
 * {@code --tls} on MINA as its users set it up: MINA 2.2's {@link SslFilter} first in every session's filter chain,
 * over the JDK's {@code SSLEngine} from the contexts and parameters of {@link JdkTls} (the same protocols, ciphers,
 * SNI and host name check as every other JDK-engine transport). The handlers behind it see plain bytes.
 *
 * <p>The client's handshake is part of its connect: {@link Client#awaitHandshake} returns once MINA fired
 * {@code SslEvent.SECURED}, or fails with why (what the engine threw, or the server closing the connection).
 */
final class MinaTls {

    /** What the effective configuration and the negotiated session name: the JDK's JSSE. */
    static final String ENGINE = "jdk";
    /** The filter's name in the chain. */
    static final String FILTER = "tls";

    /** The client's handshake of a session: completed by SECURED, failed by an exception or a close before it. */
    private static final AttributeKey HANDSHAKE = new AttributeKey(MinaTls.class, "handshake");

    private MinaTls() {
    }

    static String describe(ServerTls tls) {
        return ENGINE + " engine (MINA's SslFilter), " + tls.describe();
    }

    static String describe(ClientTls tls) {
        return ENGINE + " engine (MINA's SslFilter), " + tls.describe();
    }

    /** One filter for every accepted session (MINA keeps each session's engine in the session). */
    static SslFilter server(ServerTls tls) throws IOException {
        SSLContext context = JdkTls.server(tls);
        SSLParameters parameters = JdkTls.serverParameters(context, tls);
        return new MinaSslFilter(context, (session, remote) -> {
            SSLEngine engine = context.createSSLEngine();
            engine.setUseClientMode(false);
            engine.setSSLParameters(parameters);
            return engine;
        });
    }

    /** A client's TLS: one filter for every connection. */
    static final class Client {
        final SslFilter filter;
        /** Each connection's context (--tls-resumption) and whether its handshake resumed a session. */
        private final JdkClientTls jdk;

        Client(ClientTls tls) throws IOException {
            this.jdk = new JdkClientTls(tls);
            // The host as the user named it (--host): SNI and the certificate's host name check. The filter's own
            // context is never used: every engine comes from this factory.
            this.filter = new MinaSslFilter(jdk.forConnection(), (session, remote) -> {
                try {
                    return jdk.engine(remote.getPort());
                } catch (IOException e) {
                    throw new UncheckedIOException(e); // the connect fails with it
                }
            });
        }

        /** After the session's handshake: whether it resumed an earlier session (--tls-resumption). */
        boolean resumed(IoSession session) {
            return jdk.resumed((SSLSession) session.getAttribute(SslFilter.SSL_SECURED));
        }

        /** Called before the session's chain fires any event: its handshake is then awaited by the connect. */
        static void expectHandshake(IoSession session) {
            session.setAttribute(HANDSHAKE, new CompletableFuture<SSLSession>());
        }

        /**
         * The connect's wait for the handshake, bounded by the connect timeout.
         *
         * @return what it negotiated
         * @throws IOException a {@code TransportFailure} of kind HANDSHAKE naming why and the fix
         */
        TlsSession awaitHandshake(IoSession session, long timeoutMillis) throws IOException {
            @SuppressWarnings("unchecked")
            CompletableFuture<SSLSession> done = (CompletableFuture<SSLSession>) session.getAttribute(HANDSHAKE);
            try {
                SSLSession s = done.get(timeoutMillis, TimeUnit.MILLISECONDS);
                return new TlsSession(ENGINE, s.getProtocol(), s.getCipherSuite());
            } catch (TimeoutException e) {
                session.closeNow();
                throw Failures.handshake(null, timeoutMillis);
            } catch (ExecutionException e) {
                session.closeNow();
                throw Failures.handshake(e.getCause(), timeoutMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                session.closeNow();
                throw new InterruptedIOException("interrupted during the TLS handshake");
            }
        }
    }

    /** SECURED fired for this session: a client's pending handshake completes. */
    static void secured(IoSession session) {
        CompletableFuture<SSLSession> done = pending(session);
        if (done != null) {
            done.complete((SSLSession) session.getAttribute(SslFilter.SSL_SECURED));
        }
    }

    /**
     * An exception or a close while a client's handshake is pending: it fails the handshake (the connect reports
     * it; the connection's handler, not yet given to anyone, hears nothing). False once the handshake is over.
     */
    static boolean failedHandshake(IoSession session, Throwable cause) {
        CompletableFuture<SSLSession> done = pending(session);
        return done != null && done.completeExceptionally(cause != null ? cause : new ClosedChannelException());
    }

    @SuppressWarnings("unchecked")
    private static CompletableFuture<SSLSession> pending(IoSession session) {
        return (CompletableFuture<SSLSession>) session.getAttribute(HANDSHAKE);
    }
}
