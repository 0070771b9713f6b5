package io.nbench.transport.nio;

import io.nbench.transport.ClientTls;
import io.nbench.transport.ServerTls;
import io.nbench.transport.TlsSession;
import io.nbench.transport.TransportFailure;
import io.nbench.transport.support.Failures;
import io.nbench.transport.support.JdkClientTls;
import io.nbench.transport.support.JdkTls;
import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;

/**
 * {@code --tls} on nio: the JDK's {@link SSLEngine} from the context {@link JdkTls} builds, one {@link TlsWire} per
 * connection. Connection setup only, never per message.
 */
final class NioTls {

    /** What the effective configuration and the negotiated session name the JDK's JSSE. */
    static final String ENGINE = "jdk";

    private final SSLContext context;
    private final SSLParameters serverParameters;
    private final JdkClientTls client;
    private final String description;

    private NioTls(SSLContext context, SSLParameters serverParameters, JdkClientTls client, String description) {
        this.context = context;
        this.serverParameters = serverParameters;
        this.client = client;
        this.description = ENGINE + " engine (SSLEngine), " + description;
    }

    static NioTls server(ServerTls tls) throws IOException {
        SSLContext context = JdkTls.server(tls);
        return new NioTls(context, JdkTls.serverParameters(context, tls), null, tls.describe());
    }

    static NioTls client(ClientTls tls) throws IOException {
        return new NioTls(null, null, new JdkClientTls(tls), tls.describe());
    }

    /** A new connection's client engine, made before its TCP connect (so its making is no part of the handshake). */
    SSLEngine clientEngine(int port) throws IOException {
        return client.engine(port);
    }

    /** After a connection's handshake: whether it resumed an earlier session. */
    boolean resumed(TlsWire wire) {
        return client.resumed(wire.engine().getSession());
    }

    String describe() {
        return description;
    }

    /** An accepted connection's wire: its handshake is done by its first reads. */
    TlsWire serverWire(SocketChannel channel, NioConfig config) {
        SSLEngine engine = context.createSSLEngine();
        engine.setUseClientMode(false);
        engine.setSSLParameters(serverParameters);
        return new TlsWire(channel, engine, null, config);
    }

    /**
     * A connected, non-blocking channel's wire, after its handshake, done here on the caller's thread within
     * {@code timeoutMillis}: the connection is never used before it.
     *
     * @throws TransportFailure HANDSHAKE: it failed or timed out
     */
    TlsWire connect(SocketChannel channel, SSLEngine engine, Lock writeLock, NioConfig config, long timeoutMillis)
            throws IOException {
        TlsWire wire = new TlsWire(channel, engine, writeLock, config);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        try (Selector selector = Selector.open()) {
            SelectionKey key = channel.register(selector, 0);
            wire.engine().beginHandshake();
            int waitFor;
            while ((waitFor = wire.handshake()) != 0) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    throw Failures.handshake(null, timeoutMillis);
                }
                key.interestOps(waitFor);
                selector.select(left);
            }
            key.cancel();
            selector.selectNow(); // the cancelled key leaves the channel before the loop's selector takes it
        } catch (TransportFailure e) {
            throw e;
        } catch (IOException e) { // refused, reset, closed by the server: the handshake failed
            throw Failures.handshake(e, timeoutMillis);
        }
        return wire;
    }

    static TlsSession session(TlsWire wire) {
        return new TlsSession(ENGINE, wire.engine().getSession().getProtocol(),
                wire.engine().getSession().getCipherSuite());
    }

    /** What the server's log says of a failed handshake (the words the other JDK servers use). */
    static String failure(SSLException e) {
        String m = String.valueOf(e.getMessage());
        if (m.contains("Unsupported or unrecognized SSL message") || m.contains("plaintext connection")) {
            return "not TLS (" + m + "): this server runs with --tls, so clients need --tls too";
        }
        return "TLS handshake failed: " + m;
    }
}
