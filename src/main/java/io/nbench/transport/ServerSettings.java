package io.nbench.transport;

import io.nbench.protocol.Protocol;
import java.net.InetSocketAddress;

/**
 * What a server transport is asked to run.
 *
 * @param bind     address and port to listen on (port 0 = any free port, reported by {@link RunningServer#address()})
 * @param protocol framed or echo
 * @param socket   shared socket and threading settings
 * @param maxFrame largest request payload and response length accepted (framed protocol)
 * @param options  this transport's resolved {@code -O} options
 * @param idleTimeout close a connection that completes no request (echo: sends no byte) for this long;
 *                    null = never
 */
public record ServerSettings(InetSocketAddress bind, Protocol protocol, SocketSettings socket, int maxFrame,
                             OptionValues options, java.time.Duration idleTimeout) {

    /** Without an idle timeout. */
    public ServerSettings(InetSocketAddress bind, Protocol protocol, SocketSettings socket, int maxFrame,
                          OptionValues options) {
        this(bind, protocol, socket, maxFrame, options, null);
    }
}
