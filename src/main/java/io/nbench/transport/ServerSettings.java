package io.nbench.transport;

import io.nbench.protocol.Protocol;
import io.nbench.protocol.ServerCodec;
import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * What a server transport is asked to run.
 *
 * @param bind     address and port to listen on (port 0 = any free port, reported by {@link RunningServer#address()})
 * @param protocol framed or echo
 * @param socket   shared socket and threading settings; I/O threads not given (0) become every core
 * @param maxFrame largest request payload and response length accepted (framed protocol)
 * @param options  this transport's resolved {@code -O} options
 * @param idleTimeout close a connection that completes no request (echo: sends no byte) for this long;
 *                    null = never
 * @param runtime  per-request work and where requests are processed (framed protocol);
 *                 {@link ServerRuntime#INLINE} when null
 * @param listen   the listening socket's backlog and TCP_FASTOPEN; {@link ListenSettings#DEFAULT} when null
 * @param responseSize the response body of a protocol whose server decides it (HTTP's {@code --response-size})
 * @param tls      {@code --tls}: every connection is TLS with this key and these protocols; null = plain TCP. Only a
 *                 transport whose {@link Transport#tls} says so is given one
 */
public record ServerSettings(InetSocketAddress bind, Protocol protocol, SocketSettings socket, int maxFrame,
                             OptionValues options, Duration idleTimeout, ServerRuntime runtime,
                             ListenSettings listen, int responseSize, ServerTls tls) {

    public ServerSettings {
        if (runtime == null) {
            runtime = ServerRuntime.INLINE;
        }
        if (listen == null) {
            listen = ListenSettings.DEFAULT;
        }
        if (socket.ioThreads() == 0) { // transports only ever see a resolved number
            socket = socket.withIoThreads(IoThreads.allCores(0));
        }
    }

    /** Plain TCP. */
    public ServerSettings(InetSocketAddress bind, Protocol protocol, SocketSettings socket, int maxFrame,
                          OptionValues options, Duration idleTimeout, ServerRuntime runtime,
                          ListenSettings listen, int responseSize) {
        this(bind, protocol, socket, maxFrame, options, idleTimeout, runtime, listen, responseSize, null);
    }

    /** Listening with {@link ListenSettings#DEFAULT}; responses of 0 bytes where the server decides. */
    public ServerSettings(InetSocketAddress bind, Protocol protocol, SocketSettings socket, int maxFrame,
                          OptionValues options, Duration idleTimeout, ServerRuntime runtime) {
        this(bind, protocol, socket, maxFrame, options, idleTimeout, runtime, ListenSettings.DEFAULT, 0);
    }

    /** What each connection's server codec is configured with. */
    public ServerCodec.Settings codec() {
        return new ServerCodec.Settings(maxFrame, responseSize);
    }

    /** Requests answered at once on their I/O thread. */
    public ServerSettings(InetSocketAddress bind, Protocol protocol, SocketSettings socket, int maxFrame,
                          OptionValues options, Duration idleTimeout) {
        this(bind, protocol, socket, maxFrame, options, idleTimeout, ServerRuntime.INLINE);
    }

    /** This server with another runtime. */
    public ServerSettings withRuntime(ServerRuntime other) {
        return new ServerSettings(bind, protocol, socket, maxFrame, options, idleTimeout, other, listen, responseSize,
                tls);
    }

    /** Without an idle timeout. */
    public ServerSettings(InetSocketAddress bind, Protocol protocol, SocketSettings socket, int maxFrame,
                          OptionValues options) {
        this(bind, protocol, socket, maxFrame, options, null);
    }
}
