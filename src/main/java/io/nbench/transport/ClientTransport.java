package io.nbench.transport;

import io.nbench.protocol.RequestTemplate;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;

/** The client side of a transport: shared event loops or threads, from which connections are opened. */
public interface ClientTransport extends AutoCloseable {

    /**
     * Opens one connection and returns once it is established (bounded by the connect timeout).
     *
     * @param template the request this connection sends (size, response length, protocol, payload)
     * @param handler  receives this connection's events; never called before this method returns, except
     *                 {@link ConnectionHandler#onHandshakeStart} with TLS
     * @throws IOException with a message naming the cause (refused, unknown host, timed out)
     */
    ClientConnection connect(InetSocketAddress remote, RequestTemplate template, ConnectionHandler handler)
            throws IOException;

    /**
     * True when responses are delivered on the thread that sent the request, inside its send (a
     * synchronous in-JVM pipe with no I/O threads of its own, such as MINA's VmPipe). The io driver
     * needs I/O threads to send from, so the engine uses sender threads with such a transport.
     */
    default boolean deliversOnCallerThread() {
        return false;
    }

    /**
     * What reads this transport's HTTP responses ({@code --url}), for the output header's {@code http parser:}
     * line: nbench's one response parser, which every transport shares unless it brings its framework's own
     * HTTP codec (and then overrides this to name it).
     */
    default String httpParser() {
        return "nbench's HttpResponseParser (shared by the transports without an HTTP codec of their own)";
    }

    /**
     * What the first TLS connection negotiated (protocol, cipher, engine), for the header and the result; null
     * without {@code --tls} or before a connection completed its handshake.
     */
    default TlsSession tlsSession() {
        return null;
    }

    /** Effective configuration for the output header, e.g. {@code io=epoll, allocator=adaptive}. */
    Map<String, String> effectiveConfig();

    /** Closes every connection and releases threads; waits for them to end. */
    @Override
    void close();
}
