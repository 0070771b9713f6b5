package io.nbench.transport.support;

import io.nbench.transport.TransportFailure.Kind;
import io.nbench.transport.TransportFailure;
import java.net.BindException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.nio.channels.ClosedChannelException;
import java.security.cert.CertificateException;
import java.util.Locale;
import javax.net.ssl.SSLException;

/**
 * The one place where what Netty, MINA and the JDK throw on a failed connect or bind becomes a
 * {@link TransportFailure} of a known kind, with the same message whatever the transport ("Connection
 * refused", "connect timed out after 5000 ms", "cannot listen on 127.0.0.1:7007: Address already in use").
 * The libraries wrap the JDK's exception (Netty's AnnotatedConnectException, MINA's RuntimeIoException), so
 * the whole cause chain is read.
 */
public final class Failures {

    private Failures() {
    }

    /** A failed connect; {@code cause} null means it was cancelled. */
    public static TransportFailure connect(Throwable cause, long timeoutMillis) {
        if (cause == null) {
            return new TransportFailure(Kind.OTHER, "connect was cancelled", null);
        }
        Kind kind = kind(cause);
        String message = switch (kind) {
            case REFUSED -> "Connection refused";
            case TIMED_OUT -> "connect timed out after " + timeoutMillis + " ms";
            default -> root(cause);
        };
        return new TransportFailure(kind, message, cause);
    }

    /**
     * A TLS handshake that failed after the TCP connect: why, and the option that fixes it (a certificate the
     * client does not trust or that names another host; else a peer that does not speak TLS or offers nothing
     * in common). {@code cause} null: the handshake did not end within the connect timeout.
     */
    public static TransportFailure handshake(Throwable cause, long timeoutMillis) {
        if (cause == null) {
            return new TransportFailure(Kind.HANDSHAKE, "TLS handshake did not complete within " + timeoutMillis
                    + " ms: is the server running with --tls?", null);
        }
        if (plainTextAnswer(cause)) {
            return plainTextPeer(cause);
        }
        String dated = CertificateDates.explain(cause);
        if (dated != null) {
            return new TransportFailure(Kind.HANDSHAKE, "TLS handshake failed: " + dated, cause);
        }
        String why = has(cause, ClosedChannelException.class) ? "the server closed the connection"
                : root(cause);
        String lower = why.toLowerCase(Locale.ROOT);
        String fix;
        if (lower.contains("subject alternative") || lower.contains("no name matching")) {
            fix = "the server's certificate does not name the host connected to: use a --host it names, or "
                    + "--tls-insecure";
        } else if (has(cause, CertificateException.class)) {
            fix = "the server's certificate is not trusted: give it (or its CA) with --tls-ca FILE, or use "
                    + "--tls-insecure";
        } else {
            fix = "is the server running with --tls, offering one of --tls-protocols and --tls-ciphers?";
        }
        return new TransportFailure(Kind.HANDSHAKE, "TLS handshake failed (" + why + "): " + fix, cause);
    }

    /**
     * A peer that answered the ClientHello with bytes that are no TLS record (an HTTP server's 400 page, a framed
     * server's error frame): said as such rather than as the library's words for it, Netty's being a hex dump of
     * everything the server sent. The fix depends on the protocol, which the caller knows ({@link Kind#PLAIN_TEXT}).
     */
    public static TransportFailure plainTextPeer(Throwable cause) {
        return new TransportFailure(Kind.PLAIN_TEXT, "TLS handshake failed: the server answered in plain text, not TLS",
                cause);
    }

    /**
     * The JDK's words for it: "Unsupported or unrecognized SSL message" (SSLSocket), "Unrecognized SSL message,
     * plaintext connection?" (SSLEngine); no exception type of its own, so its text.
     */
    private static boolean plainTextAnswer(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SSLException
                    && String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT).contains("unrecognized ssl message")) {
                return true;
            }
        }
        return false;
    }

    private static boolean has(Throwable cause, Class<? extends Throwable> type) {
        for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    /** A server that cannot listen on {@code where} (host:port). */
    public static TransportFailure bind(Throwable cause, String where) {
        Kind kind = kind(cause) == Kind.ADDRESS_IN_USE ? Kind.ADDRESS_IN_USE : Kind.OTHER;
        return new TransportFailure(kind, "cannot listen on " + where + ": " + root(cause), cause);
    }

    private static Kind kind(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String m = String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT);
            // Netty's native transports report the errno in their own exception type, not a BindException.
            if (t instanceof BindException && m.contains("in use") || m.contains("address already in use")) {
                return Kind.ADDRESS_IN_USE;
            }
            if (t instanceof NoRouteToHostException || m.contains("unreachable")) {
                return Kind.UNREACHABLE;
            }
            if (t instanceof SocketTimeoutException || m.contains("timed out")) {
                return Kind.TIMED_OUT;
            }
            if (t instanceof ConnectException && m.contains("refused")) {
                return Kind.REFUSED;
            }
        }
        return Kind.OTHER;
    }

    /** The innermost message on one line: the libraries' wrappers add only "Error while binding on ...". */
    private static String root(Throwable cause) {
        Throwable root = cause;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String m = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return m.replaceAll("\\s*[\\r\\n]+\\s*", " ").strip();
    }
}
