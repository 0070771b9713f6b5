package io.nbench.server;

import io.nbench.monitor.MonitorToken;
import io.nbench.protocol.Protocol;
import io.nbench.server.runtime.WorkMode;
import io.nbench.transport.ListenSettings;
import io.nbench.transport.OptionValues;
import io.nbench.transport.SocketSettings;
import io.nbench.transport.ServerTls;
import io.nbench.transport.Transport;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Objects;

/**
 * A benchmark server, fully resolved and consistent: what {@code nbench server}'s options say, given to
 * {@link BenchServer#start}. Built with {@link #builder()}; the constructor rejects every inconsistent
 * setting with an {@link InvalidServerPlan} whose message the CLI prints unchanged, so a library caller and
 * a user get the same errors (the client's {@code LoadSpec} works the same way).
 *
 * @param transport        the transport that serves
 * @param transportOptions its {@code -O} options, resolved
 * @param bind             the address to listen on, one of this machine's
 * @param port             the port (0: any free one, {@link BenchServer#address()} says which)
 * @param protocol         framed or echo
 * @param socket           I/O threads and socket options
 * @param listen           the listening socket's backlog and TCP_FASTOPEN
 * @param maxFrame         largest request payload and response length accepted
 * @param responseSize     the body of every response of a protocol whose server decides it (HTTP); 0 otherwise
 * @param idleTimeout      close a connection that completes no request for this long; null: never
 * @param maxConnections   connections served at once; null: as many as the JVM's memory and ulimit -n allow
 *                         ({@link ServerConnectionLimit})
 * @param duration         how long {@link BenchServer#awaitStop} waits; null: until stopped
 * @param reportInterval   a line of figures this often once announced; null: only the report at the end
 * @param business         the work per request and the business pool it runs on
 * @param monitor          the monitor port; null: none
 * @param readyLine        announce with a machine-readable first line ({@code nbench run} reads it)
 * @param tls              {@code --tls}: the key, certificate and protocols of every connection; null: plain TCP
 */
public record ServerPlan(Transport transport, OptionValues transportOptions, InetAddress bind, int port,
                         Protocol protocol, SocketSettings socket, ListenSettings listen, int maxFrame,
                         int responseSize, Duration idleTimeout,
                         Integer maxConnections, Duration duration, Duration reportInterval, Business business,
                         Monitor monitor, boolean readyLine, ServerTls tls) {

    /** The default --max-frame, as the command line writes it and in bytes. */
    public static final String DEFAULT_MAX_FRAME_TEXT = "16m";
    public static final int DEFAULT_MAX_FRAME = 16 * 1024 * 1024;

    /**
     * The pool's queue when --executor-queue is not given: 1000, deep enough that a thousand concurrent
     * requests queue rather than being rejected, as with the Spring executor
     * config/blocking-handler-vs-executor.args reproduces.
     */
    public static final int DEFAULT_QUEUE = 1000;

    /**
     * @param work        simulated work per request; null: none
     * @param workMode    how the work spends its time
     * @param coreThreads the business pool's core threads; 0 (with {@code maxThreads} 0): no pool, requests are
     *                    processed on the I/O thread
     * @param maxThreads  what the pool grows to when its queue is full
     * @param queue       requests the pool queues; null: {@link #DEFAULT_QUEUE}
     */
    public record Business(Duration work, WorkMode workMode, int coreThreads, int maxThreads, Integer queue) {

        public static final Business NONE = new Business(null, WorkMode.SLEEP, 0, 0, null);

        public Business {
            Objects.requireNonNull(workMode, "workMode");
        }

        public boolean pool() {
            return coreThreads > 0;
        }
    }

    /**
     * @param bind  the address the monitor listens on
     * @param port  its port (0: any free one)
     * @param token what a monitor client must give first
     */
    public record Monitor(InetAddress bind, int port, MonitorToken token) {
        public Monitor {
            Objects.requireNonNull(bind, "bind");
            Objects.requireNonNull(token, "token");
        }
    }

    public ServerPlan {
        Objects.requireNonNull(transport, "transport");
        Objects.requireNonNull(transportOptions, "transportOptions");
        Objects.requireNonNull(bind, "bind");
        Objects.requireNonNull(protocol, "protocol");
        Objects.requireNonNull(socket, "socket");
        Objects.requireNonNull(listen, "listen");
        Objects.requireNonNull(business, "business");
        check(port, duration, idleTimeout, reportInterval, monitor == null ? null : monitor.port(), maxFrame,
                maxConnections, business, protocol);
        ServerRules.listen(listen);
        ServerRules.tcpFastOpen(listen.tcpFastOpen(), transport, transportOptions);
        ServerRules.tls(tls != null, transport, transportOptions);
        ServerRules.responseSize(responseSize, maxFrame, protocol);
        ServerRules.require(ServerRules.isLocal(bind), "--bind " + bind.getHostAddress() + " is not an address of "
                + "this machine: use an IP address such as 127.0.0.1, ::1 or 0.0.0.0, or a host name that resolves");
    }

    /** Every rule but the addresses', in the order the command line checks them. */
    static void check(int port, Duration duration, Duration idleTimeout, Duration reportInterval, Integer monitorPort,
                      int maxFrame, Integer maxConnections, Business business, Protocol protocol) {
        ServerRules.port("--port", port);
        ServerRules.duration(duration);
        ServerRules.idleTimeout(idleTimeout);
        ServerRules.reportInterval(reportInterval);
        if (monitorPort != null) {
            ServerRules.port("--monitor-port", monitorPort);
            ServerRules.monitorPortOfItsOwn(monitorPort, port);
        }
        ServerRules.maxFrame(maxFrame);
        ServerRules.maxConnections(maxConnections);
        ServerRules.executorThreads(business.coreThreads(), business.maxThreads());
        ServerRules.work(business.work());
        ServerRules.executorQueue(business.queue(), business.pool());
        ServerRules.delayHoldsNoThread(business.workMode(), business.pool());
        ServerRules.echoHasNoRequests(protocol, business.work(), business.pool());
    }

    public static ServerPlanBuilder builder() {
        return new ServerPlanBuilder();
    }
}
