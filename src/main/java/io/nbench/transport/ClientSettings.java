package io.nbench.transport;

import io.nbench.protocol.Protocol;
import java.time.Duration;

/**
 * What a client transport is asked to provide.
 *
 * @param protocol       framed or echo
 * @param socket         shared socket and threading settings; I/O threads not given (0) become every core:
 *                       the command line resolves its own default first ({@link IoThreads#client})
 * @param connectTimeout bound on each connect
 * @param notifyWritten  report {@link ConnectionHandler#onWritten} for every request ({@code --measure send});
 *                       when false the transport must not pay for write notifications
 * @param maxFrame       largest response frame accepted
 * @param options        this transport's resolved {@code -O} options
 * @param tls            {@code --tls}: every connection is TLS, its handshake part of the connect; null = plain
 *                       TCP. Only a transport whose {@link Transport#tls} says so is given one
 */
public record ClientSettings(Protocol protocol, SocketSettings socket, Duration connectTimeout, boolean notifyWritten,
                             int maxFrame, OptionValues options, ClientTls tls) {

    /** Plain TCP. */
    public ClientSettings(Protocol protocol, SocketSettings socket, Duration connectTimeout, boolean notifyWritten,
                          int maxFrame, OptionValues options) {
        this(protocol, socket, connectTimeout, notifyWritten, maxFrame, options, null);
    }

    public ClientSettings {
        if (socket.ioThreads() == 0) { // transports only ever see a resolved number
            socket = socket.withIoThreads(IoThreads.allCores(0));
        }
    }
}
