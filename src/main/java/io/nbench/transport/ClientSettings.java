package io.nbench.transport;

import io.nbench.protocol.Protocol;
import java.time.Duration;

/**
 * What a client transport is asked to provide.
 *
 * @param protocol       framed or echo
 * @param socket         shared socket and threading settings
 * @param connectTimeout bound on each connect
 * @param notifyWritten  report {@link ConnectionHandler#onWritten} for every request ({@code --measure send});
 *                       when false the transport must not pay for write notifications
 * @param maxFrame       largest response frame accepted
 * @param options        this transport's resolved {@code -O} options
 */
public record ClientSettings(Protocol protocol, SocketSettings socket, Duration connectTimeout, boolean notifyWritten,
                             int maxFrame, OptionValues options) {
}
