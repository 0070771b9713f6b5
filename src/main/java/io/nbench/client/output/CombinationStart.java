package io.nbench.client.output;

import io.nbench.load.LoadSpec;
import io.nbench.sweep.Combination;
import io.nbench.transport.TlsSession;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What an output knows when a combination starts.
 *
 * @param combination  its configuration keys
 * @param number       its position in the sweep, from 1
 * @param load         the workload as the engine runs it (defaults resolved for this client transport)
 * @param target       host:port
 * @param transport    the client transport's name
 * @param config       the client transport's effective configuration
 * @param writtenEvent what "written" means for {@code --measure send} with this transport, or null
 * @param httpParser   what reads this transport's HTTP responses (shown when the protocol is HTTP)
 * @param tls          what the first TLS connection negotiated, once the connections are open (null without --tls)
 */
public record CombinationStart(Combination combination, int number, LoadSpec load, String target, String transport,
                               Map<String, String> config, String writtenEvent, String httpParser,
                               Supplier<TlsSession> tls) {
}
