package io.nbench.server;

import io.nbench.monitor.MonitorToken;
import io.nbench.server.metrics.MetricsJson;
import io.nbench.server.monitor.MonitorServer;
import io.nbench.server.runtime.BusinessExecutor;
import io.nbench.server.runtime.BusinessRuntime;
import io.nbench.transport.RunningServer;
import io.nbench.transport.ServerSettings;
import io.nbench.transport.TransportFailure;
import io.nbench.units.Durations;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.StringJoiner;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A running benchmark server, as {@code nbench server} runs it and as a library starts it: the transport,
 * its metrics, the monitor and the sampler behind the periodic lines, started from a {@link ServerPlan} and
 * stopped by {@link #close()}, which prints the report. {@code nbench server}, {@code nbench run
 * --in-process} and the tests all start a server this way.
 *
 * <pre>{@code
 * try (BenchServer server = BenchServer.start(ServerPlan.builder().transport("nio", Map.of()).build(), out, err)) {
 *     server.announce();                 // optional: the banner, then the periodic lines
 *     InetSocketAddress where = server.address();
 *     ...
 * }                                      // the report, on out
 * }</pre>
 *
 * <p>Stopping does not drain: the transport stops accepting and reading and closes every connection, then
 * the business pool ends (queued requests are never run, running work is interrupted). A benchmark server
 * is stopped when the measurement is over, so answering what is queued would only delay the report;
 * instead each request received and not answered is counted as dropped at shutdown, in the report.
 */
public final class BenchServer implements AutoCloseable {

    private final ServerPlan plan;
    private final PrintWriter out;
    private final BusinessRuntime runtime;
    private final ServerConnectionLimit limit;
    private final ServerMetrics metrics;
    private final RunningServer server;
    private final MonitorServer monitor;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private MetricsSampler sampler;
    private boolean closed;

    private BenchServer(ServerPlan plan, PrintWriter out, BusinessRuntime runtime, ServerConnectionLimit limit,
                        ServerMetrics metrics, RunningServer server, MonitorServer monitor) {
        this.plan = plan;
        this.out = out;
        this.runtime = runtime;
        this.limit = limit;
        this.metrics = metrics;
        this.server = server;
        this.monitor = monitor;
    }

    /**
     * Binds the server (and its monitor) and serves from then on; nothing is printed yet ({@link #announce()}).
     *
     * @param out where the periodic lines and the report go
     * @param err where the server logs what goes wrong (refused connections, protocol errors)
     * @throws CouldNotStart its port taken, no descriptor left, the monitor's port taken
     */
    public static BenchServer start(ServerPlan plan, PrintWriter out, PrintWriter err) throws CouldNotStart {
        try {
            JdkIoWarmup.run();
        } catch (UncheckedIOException e) {
            throw new CouldNotStart(e.getMessage() + ": raise the descriptor limit (ulimit -n)", e);
        }
        // Its pool starts no thread before the first request: nothing to stop if the transport cannot start.
        BusinessRuntime runtime = runtime(plan.business());
        ServerSettings settings = new ServerSettings(new InetSocketAddress(plan.bind(), plan.port()), plan.protocol(),
                plan.socket(), plan.maxFrame(), plan.transportOptions(), plan.idleTimeout(), runtime, plan.listen(),
                plan.responseSize(), plan.tls());
        ServerConnectionLimit limit = ServerConnectionLimit.of(plan.maxConnections(), plan.transport(), settings);
        ServerMetrics metrics = new ServerMetrics(err, limit.max(), limit.hint());
        RunningServer server;
        try {
            server = plan.transport().startServer(settings, metrics);
        } catch (IOException e) {
            runtime.close();
            boolean inUse = e instanceof TransportFailure f && f.kind() == TransportFailure.Kind.ADDRESS_IN_USE;
            throw new CouldNotStart(e.getMessage() + (inUse
                    ? ": stop the process using the port or choose another --port" : ""), e);
        }
        MonitorServer monitor = null;
        if (plan.monitor() != null) {
            InetSocketAddress at = new InetSocketAddress(plan.monitor().bind(), plan.monitor().port());
            try {
                monitor = MonitorServer.start(at, plan.monitor().token(), metrics, MonitorServer.DEFAULT_IDLE_TIMEOUT,
                        new MetricsJson.Server(plan.transport().name(), plan.protocol().label()));
            } catch (IOException e) {
                server.close();
                runtime.close();
                throw new CouldNotStart("cannot listen for the monitor on " + at.getHostString() + ":" + at.getPort()
                        + ": " + e.getMessage() + ": choose another --monitor-port", e);
            }
        }
        return new BenchServer(plan, out, runtime, limit, metrics, server, monitor);
    }

    private static BusinessRuntime runtime(ServerPlan.Business b) {
        BusinessExecutor pool = b.pool() ? new BusinessExecutor(b.coreThreads(), b.maxThreads(),
                b.queue() == null ? ServerPlan.DEFAULT_QUEUE : b.queue()) : null;
        return new BusinessRuntime(b.work(), b.workMode(), pool);
    }

    /**
     * Prints where it listens (the ready line first when the plan asks for it), then starts the periodic
     * lines. Separate from {@link #start} so that {@code nbench server} can put its stop hook in between: a
     * supervisor may send SIGTERM as soon as it reads the first line, and the report must follow even then.
     */
    public synchronized void announce() {
        if (plan.readyLine()) {
            out.println(ReadyLine.format(server.address(), monitor != null ? monitor.address().getPort() : null));
        }
        out.println(banner());
        StringJoiner config = new StringJoiner(", ");
        server.effectiveConfig().forEach((k, v) -> config.add(k + "=" + v));
        out.println("  transport: " + config);
        if (monitor != null) {
            // Printed once, here only; never logged again.
            MonitorToken token = plan.monitor().token();
            out.println(token.generated() ? "  monitor token: " + token.reveal() + " (generated; give clients the "
                    + "same through " + MonitorToken.ENV + " or --monitor-token-file)"
                    : "  monitor token: from " + token.source());
        }
        out.flush();
        if (!closed) {
            sampler = new MetricsSampler(metrics, plan.reportInterval(), out);
        }
    }

    /** "nbench server: netty listening on 127.0.0.1:7007, protocol framed, max frame ... bytes, ...". */
    private String banner() {
        return "nbench server: " + plan.transport().name() + " listening on " + server.address().getHostString() + ":"
                + server.address().getPort() + ", protocol " + plan.protocol().label()
                + (plan.protocol().serverSetsResponseSize() ? " (responses of " + plan.responseSize() + " bytes)" : "")
                + ", max frame " + plan.maxFrame() + " bytes"
                + (runtime.hasWork() || runtime.pool() != null ? ", " + runtime.describe(transportExecutor()) : "")
                + (plan.idleTimeout() != null ? ", idle timeout " + Durations.format(plan.idleTimeout()) : "")
                + limit.describe()
                + (plan.duration() != null ? ", for " + Durations.format(plan.duration()) : "")
                + (monitor != null ? ", monitor on " + monitor.address().getHostString() + ":"
                        + monitor.address().getPort() : "");
    }

    /**
     * The transport's own executor when a {@code -O} option put the request handler on one (its effective
     * configuration says so under "executor"), else null.
     */
    private String transportExecutor() {
        String executor = server.effectiveConfig().get("executor");
        return executor == null || executor.startsWith("off") ? null : executor;
    }

    /** Where it listens (with port 0, the port chosen). */
    public InetSocketAddress address() {
        return server.address();
    }

    /** Where its monitor listens, or null without one. */
    public InetSocketAddress monitorAddress() {
        return monitor != null ? monitor.address() : null;
    }

    /** Its figures so far: requests, connections, processing times. */
    public ServerMetrics metrics() {
        return metrics;
    }

    /**
     * Waits until it is closed or {@code timeout} has passed (null: until closed).
     *
     * @return whether it was closed
     */
    public boolean awaitStop(Duration timeout) throws InterruptedException {
        if (timeout == null) {
            stopped.await();
            return true;
        }
        return stopped.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Stops at once (see the class comment) and prints the report; once, from whichever thread comes first. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (sampler != null) {
            sampler.close();
        }
        if (monitor != null) {
            monitor.close();
        }
        metrics.stopping();
        server.close();
        runtime.close();
        metrics.printFinal(out);
        stopped.countDown();
    }
}
