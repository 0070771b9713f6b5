package io.nbench.transport.blocking;

import io.nbench.transport.ClientTls;
import io.nbench.transport.ServerTls;
import io.nbench.transport.TlsSession;
import io.nbench.transport.support.Failures;
import io.nbench.transport.support.JdkClientTls;
import io.nbench.transport.support.JdkTls;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * {@code --tls} on the blocking transports: the JDK's {@link SSLSocket} layered over the connected (or accepted)
 * socket, its handshake done by the connection's own thread before the first byte of the protocol. The layered
 * socket carries the protocol's bytes; closing the plain socket under it is what ends a blocked read, as without
 * TLS.
 */
final class BlockingTls {

    /** What the effective configuration and the negotiated session name the JDK's JSSE. */
    static final String ENGINE = "jdk";

    /** The server's context; null on a client. */
    private final SSLContext context;
    /** The server's parameters; null on a client. */
    private final SSLParameters parameters;
    /** The client's contexts; null on a server. */
    private final JdkClientTls client;
    private final String description;

    private BlockingTls(SSLContext context, SSLParameters parameters, JdkClientTls client, String description) {
        this.context = context;
        this.parameters = parameters;
        this.client = client;
        this.description = description;
    }

    static BlockingTls server(ServerTls tls) throws IOException {
        SSLContext context = JdkTls.server(tls);
        return new BlockingTls(context, JdkTls.serverParameters(context, tls), null, ENGINE + " engine (SSLSocket), "
                + tls.describe());
    }

    static BlockingTls client(ClientTls tls) throws IOException {
        return new BlockingTls(null, null, new JdkClientTls(tls), ENGINE + " engine (SSLSocket), " + tls.describe());
    }

    /** A new connection's context, taken before its TCP connect (so its making is no part of the handshake). */
    SSLContext clientContext() throws IOException {
        return client.forConnection();
    }

    /** After a connection's handshake: whether it resumed an earlier session. */
    boolean resumed(SSLSocket ssl) {
        return client.resumed(ssl.getSession());
    }

    String describe() {
        return description;
    }

    /**
     * The server's side of an accepted connection, after its handshake.
     *
     * @throws SSLException the handshake failed (a plain-text client, nothing in common): the caller logs why
     */
    SSLSocket accept(Socket raw) throws IOException {
        SSLSocket ssl = (SSLSocket) context.getSocketFactory().createSocket(raw, null, raw.getPort(), true);
        ssl.setUseClientMode(false);
        ssl.setSSLParameters(parameters);
        ssl.startHandshake();
        return ssl;
    }

    /**
     * The client's side of a connected socket, after a handshake bounded by the connect timeout.
     *
     * @param connection the connection's context ({@link #clientContext})
     */
    SSLSocket connect(SSLContext connection, Socket raw, String serverName, int port, int timeoutMillis)
            throws IOException {
        SSLSocket ssl = (SSLSocket) connection.getSocketFactory().createSocket(raw, serverName, port, true);
        ssl.setUseClientMode(true);
        ssl.setSSLParameters(client.parameters(connection));
        int readTimeout = raw.getSoTimeout();
        try {
            ssl.setSoTimeout(timeoutMillis);
            ssl.startHandshake();
            ssl.setSoTimeout(readTimeout);
            return ssl;
        } catch (IOException e) {
            raw.close();
            throw Failures.handshake(e instanceof SocketTimeoutException ? null : e, timeoutMillis);
        }
    }

    static TlsSession session(SSLSocket ssl) {
        return new TlsSession(ENGINE, ssl.getSession().getProtocol(), ssl.getSession().getCipherSuite());
    }

    /** What the server's log says of a failed handshake. */
    static String failure(SSLException e) {
        return JdkTls.serverFailure(e);
    }
}
