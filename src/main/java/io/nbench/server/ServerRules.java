package io.nbench.server;

import io.nbench.protocol.Protocol;
import io.nbench.protocol.ProtocolRegistry;
import io.nbench.server.runtime.WorkMode;
import io.nbench.transport.Availability;
import io.nbench.transport.ListenSettings;
import io.nbench.transport.OptionValues;
import io.nbench.transport.Transport;
import io.nbench.transport.TransportRegistry;
import io.nbench.units.Durations;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The rules a server plan obeys, one method per rule, each throwing {@link InvalidServerPlan} with the message
 * the CLI prints (as {@code load/LoadRules} does for the client). The builder applies them in the order the
 * options are checked on the command line; the plan's constructor applies them again, so no inconsistent
 * plan exists however it was made.
 */
final class ServerRules {

    private ServerRules() {
    }

    static void require(boolean ok, String message) {
        if (!ok) {
            throw new InvalidServerPlan(message);
        }
    }

    static void port(String option, int port) {
        require(port >= 0 && port <= 65535, option + " " + port + " is not a TCP port: use 0 to 65535");
    }

    static void duration(Duration duration) {
        require(duration == null || !duration.isNegative(), "--duration must not be negative");
    }

    static void tlsHandshakeTimeout(Duration timeout) {
        require(!(timeout.isNegative() || timeout.isZero()),
                "--tls-handshake-timeout must be positive, e.g. 10s (a handshake not done by then is closed)");
    }

    static void idleTimeout(Duration idleTimeout) {
        require(idleTimeout == null || !(idleTimeout.isNegative() || idleTimeout.isZero()),
                "--idle-timeout must be positive (leave it out to keep idle connections open)");
    }

    static void reportInterval(Duration reportInterval) {
        require(reportInterval == null || reportInterval.toMillis() >= 100, "--report-interval "
                + (reportInterval == null ? "" : Durations.format(reportInterval))
                + " is too short to read: use at least 100ms, e.g. 5s");
    }

    static void monitorPortOfItsOwn(int monitorPort, int port) {
        require(monitorPort == 0 || monitorPort != port, "--monitor-port " + monitorPort
                + " is the benchmark's --port: give the monitor a port of its own");
    }

    static void maxFrame(int maxFrame) {
        require(maxFrame >= 1, "--max-frame " + maxFrame + " accepts no payload: use at least 1 byte (default "
                + ServerPlan.DEFAULT_MAX_FRAME_TEXT + ")");
    }

    /** HTTP's --response-size: the server decides its responses' size only where its protocol lets it. */
    static void responseSize(int responseSize, int maxFrame, Protocol protocol) {
        require(responseSize >= 0, "--response-size must not be negative");
        require(responseSize == 0 || protocol.serverSetsResponseSize(), "--response-size needs --protocol "
                + ProtocolRegistry.load().all().stream().filter(Protocol::serverSetsResponseSize).map(Protocol::label)
                        .collect(Collectors.joining(" or ")) + " (" + protocol.label()
                + (protocol.responseIsRequest() ? "'s response is its request" : " requests say how large their "
                        + "response is") + ")");
        require(responseSize <= maxFrame, "--response-size " + responseSize + " > --max-frame " + maxFrame
                + ": use a smaller --response-size or raise --max-frame");
    }

    static void maxConnections(Integer maxConnections) {
        require(maxConnections == null || maxConnections >= 1, "--max-connections " + maxConnections
                + " serves nothing: use at least 1 (leave it out for a limit from the JVM's memory and ulimit -n)");
    }

    static void executorThreads(int core, int max) {
        require(core == 0 && max == 0 || core >= 1 && core <= max, "--executor-threads " + core + ":" + max
                + " is not a pool: use N or CORE:MAX with 1 <= CORE <= MAX, e.g. 8 or 100:200 (0 = on the I/O thread)");
    }

    static void work(Duration work) {
        require(work == null || !(work.isNegative() || work.isZero()), "--work must be positive, e.g. 50us or 1s "
                + "(leave it out for none)");
    }

    static void executorQueue(Integer queue, boolean pool) {
        require(queue == null || queue >= 1, "--executor-queue " + queue + " holds no request: use at least 1 "
                + "(default " + ServerPlan.DEFAULT_QUEUE + ")");
        require(queue == null || pool, "--executor-queue needs --executor-threads (the queue of the business pool; "
                + "without it requests are processed on the I/O thread)");
    }

    /**
     * A pool thread would only hand the request to the timer and return: nothing to measure that the timer
     * alone does not, and a pool that never grows would be read as one that was never needed.
     */
    static void delayHoldsNoThread(WorkMode mode, boolean pool) {
        require(mode != WorkMode.DELAY || !pool, "--work-mode delay holds no thread while it waits, so "
                + "--executor-threads has nothing to run: leave out --executor-threads, or use --work-mode sleep to "
                + "block pool threads");
    }

    static void echoHasNoRequests(Protocol protocol, Duration work, boolean pool) {
        require(protocol.hasRequests() || work == null && !pool, (work != null ? "--work" : "--executor-threads")
                + " needs --protocol " + ProtocolRegistry.load().withRequests() + " (" + protocol.label()
                + " has no requests to process, only bytes)");
    }

    static void listen(ListenSettings listen) {
        require(listen.backlog() >= 1, "--backlog " + listen.backlog() + " queues no connection: use at least 1 "
                + "(default " + ListenSettings.DEFAULT_BACKLOG + "; Linux caps it at net.core.somaxconn)");
        require(listen.tcpFastOpen() >= 0, "--tcp-fastopen " + listen.tcpFastOpen() + " is negative: use the "
                + "number of pending Fast Open requests to queue, e.g. 256 (0 = off)");
    }

    /**
     * TCP_FASTOPEN only where the transport can set it: silently listening without it would measure something
     * else than the command line says. The refusal names the transports that set it here.
     */
    static void tcpFastOpen(int queue, Transport transport, OptionValues options) {
        if (queue == 0) {
            return;
        }
        Availability a = transport.serverTcpFastOpen(options);
        if (a.available()) {
            return;
        }
        // The other transports that set it here with their default options (this one's reason says its own fix).
        TransportRegistry registry = TransportRegistry.load();
        List<String> others = new ArrayList<>();
        for (Transport t : registry.all()) {
            if (!t.name().equals(transport.name()) && !t.inJvm()
                    && t.serverTcpFastOpen(registry.resolveOptions(t, Map.of())).available()) {
                others.add(t.name());
            }
        }
        throw new InvalidServerPlan("--tcp-fastopen " + queue + ": " + a.reason() + (others.isEmpty() ? ""
                : "; " + String.join(", ", others) + (others.size() == 1 ? " sets" : " set") + " it (--impl "
                        + others.get(0) + ")"));
    }

    /**
     * TLS only where the transport has it: a server that silently served plain text would measure something else
     * than the command line says. The refusal names the transports that have it here.
     */
    static void tls(boolean on, Transport transport, OptionValues options) {
        if (!on) {
            return;
        }
        Availability a = transport.tls(options);
        if (!a.available()) {
            throw new InvalidServerPlan("--tls: " + a.reason() + " (" + TransportRegistry.load().withTls()
                    + ": choose one with --impl)");
        }
    }

    /** The address {@code bind} names, which must be one of this machine's (or the wildcard, or loopback). */
    static InetAddress localAddress(String option, String bind) {
        require(!bind.isBlank(), option + " is empty: use an IP address such as 127.0.0.1, ::1 or 0.0.0.0");
        try {
            InetAddress address = InetAddress.getByName(bind);
            if (isLocal(address)) {
                return address;
            }
        } catch (UnknownHostException e) {
            // not resolvable: the same answer
        }
        throw new InvalidServerPlan(option + " " + bind + " is not an address of this machine: use an IP address "
                + "such as 127.0.0.1, ::1 or 0.0.0.0, or a host name that resolves");
    }

    static boolean isLocal(InetAddress address) {
        try {
            return address.isAnyLocalAddress() || address.isLoopbackAddress()
                    || NetworkInterface.getByInetAddress(address) != null;
        } catch (SocketException e) {
            return false; // the interfaces cannot be listed: as if not this machine's
        }
    }
}
