package io.nbench.client;

import io.nbench.load.LoadSpec;
import io.nbench.protocol.Protocol;
import io.nbench.sweep.Combination;
import io.nbench.transport.ClientTls;
import io.nbench.transport.SocketSettings;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Everything a client run needs, decided and checked before anything runs, so a bad combination is an error
 * up front and not after an hour of others.
 *
 * @param host             the server as the user named it
 * @param remote           its address
 * @param steps            the sweep's combinations, in the order they run
 * @param keys             the sweep's combination keys, in column order
 * @param socket           socket options of every connection; I/O threads 0: each combination's default
 *                         ({@link io.nbench.transport.IoThreads#client})
 * @param connectTimeout   how long one connect may take
 * @param verdict          how each combination is judged
 * @param firstIterationAt when the first (warmup) iteration starts, so that the first measured one starts at
 *                         an instant agreed between client hosts; null: at once
 * @param tls              {@code --tls}: what every connection offers and trusts; null: plain TCP
 */
public record ClientPlan(String host, InetSocketAddress remote, List<Step> steps, List<String> keys,
                         SocketSettings socket, Duration connectTimeout, Verdict verdict, Instant firstIterationAt,
                         ClientTls tls) {

    /** One combination, resolved: its keys, its transport with options, its workload. */
    public record Step(Combination combination, ResolvedTransport transport, LoadSpec load) {
    }

    public ClientPlan {
        steps = List.copyOf(steps);
        keys = List.copyOf(keys);
    }

    /** Plain TCP. */
    public ClientPlan(String host, InetSocketAddress remote, List<Step> steps, List<String> keys,
                      SocketSettings socket, Duration connectTimeout, Verdict verdict, Instant firstIterationAt) {
        this(host, remote, steps, keys, socket, connectTimeout, verdict, firstIterationAt, null);
    }

    /** A plan from typed values: the sweep expanded and every combination resolved by its {@code build()}. */
    public static ClientPlanBuilder builder() {
        return new ClientPlanBuilder();
    }

    /** The protocol the client speaks to the server (every combination's); null for a plan of no combination. */
    public Protocol protocol() {
        return steps.isEmpty() ? null : steps.get(0).load().message().protocol();
    }

    /** {@code host:port}, as the results name the server. */
    public String target() {
        return host + ":" + remote.getPort();
    }

    /** The server's address; a name that does not resolve cannot run. */
    public static InetSocketAddress address(String host, int port) throws CouldNotRun {
        try {
            return new InetSocketAddress(InetAddress.getByName(host), port);
        } catch (UnknownHostException e) {
            throw new CouldNotRun("unknown host '" + host + "': check --host");
        }
    }
}
