package io.nbench.cli;

import io.nbench.client.CouldNotRun;
import io.nbench.client.ResolvedTransport;
import io.nbench.client.ExitCode;
import io.nbench.monitor.MonitorServer;
import io.nbench.monitor.MonitorToken;
import io.nbench.server.FatalErrors;
import io.nbench.server.MetricsSampler;
import io.nbench.server.JdkIoWarmup;
import io.nbench.server.ReadyLine;
import io.nbench.server.ServerMetrics;
import io.nbench.server.runtime.BusinessRuntime;
import io.nbench.transport.RunningServer;
import io.nbench.transport.TransportFailure;
import io.nbench.transport.ServerSettings;
import io.nbench.transport.TransportRegistry;
import io.nbench.units.Durations;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.StringJoiner;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "server", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Runs a benchmark server with one transport until SIGINT/SIGTERM or --duration, then prints "
                + "its metrics. The first line of output says where it listens (with --port 0, the port chosen).",
        footer = {"", "Examples:",
            "  # netty on 127.0.0.1:7007, framed protocol",
            "  nbench server",
            "  nbench server --impl mina --port 9000",
            "  nbench server --protocol echo --io-threads 2",
            "  # serve remote clients (explicit on purpose)",
            "  nbench server --bind 0.0.0.0",
            "  # any free port, stop after 30 s",
            "  nbench server --port 0 --duration 30s",
            "  # close connections idle (no complete request) for 30 s",
            "  nbench server --idle-timeout 30s",
            "  # 1 s of blocking work per request, on the event loop",
            "  nbench server --work 1s",
            "  # the same on a business pool of 100 to 200 threads",
            "  nbench server --work 1s --executor-threads 100:200",
            "  # 50 us of CPU per request on 4 threads, queue of 64",
            "  nbench server --work 50us --work-mode spin \\",
            "      --executor-threads 4 --executor-queue 64",
            "  # a line of figures every 5 s; the monitor for nbench console",
            "  nbench server --report-interval 5s",
            "  NBENCH_MONITOR_TOKEN=s3cret nbench server --monitor-port 7070",
            "", "Exit codes: 0 stopped (SIGINT, SIGTERM or --duration) after printing its metrics, 1 could not "
                + "run, 2 usage error."})
final class ServerCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    TransportOptions transport;

    @Mixin
    BusinessOptions business;

    @Option(names = "--bind", paramLabel = "ADDR", defaultValue = "127.0.0.1",
            description = "Address to listen on (default: ${DEFAULT-VALUE}; remote clients need an explicit 0.0.0.0).")
    String bind;

    @Option(names = "--max-frame", paramLabel = "SIZE", defaultValue = "16m", converter = Converters.Size.class,
            description = "Largest request payload and response length accepted (default: ${DEFAULT-VALUE}); a "
                    + "larger request closes its connection as a protocol error.")
    int maxFrame;

    @Option(names = "--idle-timeout", paramLabel = "D", converter = Converters.Time.class,
            description = "Close a connection that completes no request (echo: sends no byte) for D, e.g. a "
                    + "slowloris peer trickling bytes; counted as 'idle closed' (default: never).")
    Duration idleTimeout;

    @Option(names = "--max-connections", paramLabel = "N",
            description = "Serve at most N connections at once; more are closed as they arrive, logged at most "
                    + "once per 10 s and counted (default: as many as fit in 3/4 of the JVM's memory at what the "
                    + "transport can hold per connection, e.g. 18,000 for netty with a 6 GiB heap, and no more than "
                    + "the descriptor limit, ulimit -n, leaves).")
    Integer maxConnections;

    @Option(names = "--duration", paramLabel = "D", converter = Converters.Time.class,
            description = "Stop after this long (default: run until SIGINT/SIGTERM).")
    Duration duration;

    /** Set by {@code nbench run}: first print a machine-readable line with the bound address. */
    @Option(names = "--ready-line", hidden = true)
    boolean readyLine;

    @Option(names = "--report-interval", paramLabel = "D", converter = Converters.Time.class,
            description = "Print one line of figures every D: requests/s, processing time p50/p99/max, queue wait, "
                    + "rejections, open connections, CPU (default: only the report at the end).")
    Duration reportInterval;

    @Mixin
    ServerMonitorOptions monitor;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (transport.port < 0 || transport.port > 65535) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "--port " + transport.port + " is not a TCP port: use 0 to 65535");
        }
        if (duration != null && duration.isNegative()) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--duration must not be negative");
        }
        if (idleTimeout != null && (idleTimeout.isNegative() || idleTimeout.isZero())) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "--idle-timeout must be positive (leave it out to keep idle connections open)");
        }
        transport.checkIoThreads(spec, "--io-threads");
        if (reportInterval != null && reportInterval.toMillis() < 100) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--report-interval "
                    + Durations.format(reportInterval) + " is too short to read: use at least 100ms, e.g. 5s");
        }
        if (monitor.port != null && (monitor.port < 0 || monitor.port > 65535)) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "--monitor-port " + monitor.port + " is not a TCP port: use 0 to 65535");
        }
        if (monitor.port != null && monitor.port != 0 && monitor.port == transport.port) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--monitor-port " + monitor.port
                    + " is the benchmark's --port: give the monitor a port of its own");
        }
        MonitorToken token = monitorToken();
        if (maxFrame < 1) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--max-frame " + maxFrame
                    + " accepts no payload: use at least 1 byte (default 16m)");
        }
        if (transport.impls().size() > 1) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "a server runs one transport: --impl "
                    + transport.impl + " names " + transport.impls().size() + " (start one server per transport)");
        }
        if (maxConnections != null && maxConnections < 1) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--max-connections " + maxConnections
                    + " serves nothing: use at least 1 (leave it out for a limit from the JVM's memory and ulimit -n)");
        }
        transport.checkOptionsInUse(spec, TransportRegistry.load(), transport.impls(), "use --impl %s");
        // Its pool starts no thread before the first request, so the early returns below leave nothing running.
        BusinessRuntime runtime = business.runtime(spec, transport.protocol);
        InetAddress address = bindAddress();
        InetAddress monitorAddress = monitor.port != null ? address("--monitor-bind", monitor.bind) : null;
        ResolvedTransport resolved;
        try {
            resolved = transport.resolve(spec);
        } catch (CouldNotRun e) {
            err.println("nbench server: " + e.getMessage());
            return ExitCode.COULD_NOT_RUN;
        }
        // From here on an error that escapes a server thread ends the process (exit 1, one line): a server
        // that lost a thread would keep its port open and serve nothing.
        FatalErrors.install();
        try {
            JdkIoWarmup.run();
        } catch (java.io.UncheckedIOException e) {
            err.println("nbench server: " + e.getMessage() + ": raise the descriptor limit (ulimit -n)");
            return ExitCode.COULD_NOT_RUN;
        }
        ServerSettings settings = new ServerSettings(new InetSocketAddress(address, transport.port), transport.protocol,
                transport.socket(), maxFrame, resolved.options(), idleTimeout, runtime);
        ServerConnectionLimit limit = ServerConnectionLimit.of(maxConnections, resolved.transport(), settings);
        ServerMetrics metrics = new ServerMetrics(err, limit.max(), limit.hint());
        RunningServer server;
        try {
            server = resolved.transport().startServer(settings, metrics);
        } catch (IOException e) {
            boolean inUse = e instanceof TransportFailure f && f.kind() == TransportFailure.Kind.ADDRESS_IN_USE;
            err.println("nbench server: " + e.getMessage() + (inUse
                    ? ": stop the process using the port or choose another --port" : ""));
            return ExitCode.COULD_NOT_RUN;
        }
        MonitorServer monitorServer = null;
        if (monitor.port != null) {
            try {
                monitorServer = MonitorServer.start(new InetSocketAddress(monitorAddress, monitor.port), token, metrics,
                        MonitorServer.DEFAULT_IDLE_TIMEOUT);
            } catch (IOException e) {
                server.close();
                err.println("nbench server: cannot listen for the monitor on " + monitor.bind + ":" + monitor.port
                        + ": " + e.getMessage() + ": choose another --monitor-port");
                return ExitCode.COULD_NOT_RUN;
            }
        }
        // The stop hook goes in before anything announces the server: a supervisor (or a test) may send
        // SIGTERM as soon as it reads the first line, and the report and exit 0 must follow even then.
        AtomicReference<MetricsSampler> sampler = new AtomicReference<>();
        MonitorServer monitorToClose = monitorServer;
        Runnable stopAll = () -> {
            MetricsSampler s = sampler.get();
            if (s != null) {
                s.close();
            }
            if (monitorToClose != null) {
                monitorToClose.close();
            }
            stop(server, runtime, metrics, out);
        };

        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stopAll.run();
            stopped.countDown();
            // SIGINT/SIGTERM is how a server is meant to end: after a clean stop and its report, exit 0
            // rather than the JVM's 128 + signal, so that scripts and supervisors see success.
            Runtime.getRuntime().halt(ExitCode.OK);
        }, "nbench-server-shutdown");
        try {
            Runtime.getRuntime().addShutdownHook(hook);
        } catch (IllegalStateException e) {
            // Stopped by a signal while starting, before it announced anything: nothing to report.
            stopAll.run();
            return ExitCode.OK;
        }
        if (readyLine) {
            out.println(ReadyLine.format(server.address(),
                    monitorServer != null ? monitorServer.address().getPort() : null));
        }
        StringJoiner config = new StringJoiner(", ");
        server.effectiveConfig().forEach((k, v) -> config.add(k + "=" + v));
        out.println("nbench server: " + resolved.transport().name() + " listening on "
                + server.address().getHostString() + ":" + server.address().getPort() + ", protocol "
                + transport.protocol.label() + ", max frame " + maxFrame + " bytes"
                + (runtime.hasWork() || runtime.pool() != null
                        ? ", " + runtime.describe(transportExecutor(server)) : "")
                + (idleTimeout != null ? ", idle timeout " + Durations.format(idleTimeout) : "")
                + limit.describe()
                + (duration != null ? ", for " + Durations.format(duration) : "")
                + (monitorServer != null ? ", monitor on " + monitorServer.address().getHostString() + ":"
                        + monitorServer.address().getPort() : ""));
        out.println("  transport: " + config);
        if (monitorServer != null) {
            // Printed once, here only; never logged again.
            out.println(token.generated() ? "  monitor token: " + token.reveal() + " (generated; give clients the "
                    + "same through " + MonitorToken.ENV + " or --monitor-token-file)"
                    : "  monitor token: from " + token.source());
        }
        out.flush();
        sampler.set(new MetricsSampler(metrics, reportInterval, out));
        try {
            if (duration != null) {
                stopped.await(duration.toNanos(), TimeUnit.NANOSECONDS);
            } else {
                stopped.await();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (stopped.getCount() > 0) {
            // --duration elapsed: stop here rather than in the hook.
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // A signal came at the same instant: the hook stops the server, reports and ends the process.
                return ExitCode.OK;
            }
            stopAll.run();
        }
        runtime.close();
        return ExitCode.OK;
    }

    /**
     * The transport's own executor when a {@code -O} option put the request handler on one (its
     * effective configuration says so under "executor"), else null.
     */
    private static String transportExecutor(RunningServer server) {
        String executor = server.effectiveConfig().get("executor");
        return executor == null || executor.startsWith("off") ? null : executor;
    }

    /** The monitor's token (file, environment, else generated); a bad file or variable is a usage error. */
    private MonitorToken monitorToken() {
        if (monitor.port == null) {
            return null;
        }
        try {
            MonitorToken t = MonitorToken.from(monitor.tokenFile, System.getenv());
            String exposed = monitor.tokenFile != null ? MonitorToken.exposure(monitor.tokenFile) : null;
            if (exposed != null) {
                spec.commandLine().getErr().println("nbench server: warning: " + exposed);
                spec.commandLine().getErr().flush();
            }
            return t != null ? t : MonitorToken.generate();
        } catch (MonitorToken.Invalid e) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    /** The --bind address, resolved before anything starts: an address that does not exist is a usage error. */
    private InetAddress bindAddress() {
        return address("--bind", bind);
    }

    private InetAddress address(String option, String bind) {
        if (bind.isBlank()) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    option + " is empty: use an IP address such as 127.0.0.1, ::1 or 0.0.0.0");
        }
        try {
            InetAddress address = InetAddress.getByName(bind);
            if (address.isAnyLocalAddress() || address.isLoopbackAddress()
                    || NetworkInterface.getByInetAddress(address) != null) {
                return address;
            }
        } catch (UnknownHostException | SocketException e) {
            // not resolvable, or the interfaces cannot be listed: the same answer
        }
        throw new picocli.CommandLine.ParameterException(spec.commandLine(), option + " " + bind + " is not an address "
                + "of this machine: use an IP address such as 127.0.0.1, ::1 or 0.0.0.0, or a host name that resolves");
    }

    /**
     * Stops at once, without draining: the transport stops accepting and reading and closes every connection,
     * then the business pool ends (queued requests are never run, running work is interrupted). A benchmark
     * server is stopped when the measurement is over, so answering what is queued would only delay the
     * report; instead each request received and not answered is counted as dropped at shutdown, in the report.
     */
    private static void stop(RunningServer server, BusinessRuntime runtime, ServerMetrics metrics, PrintWriter out) {
        metrics.stopping();
        server.close();
        runtime.close();
        metrics.printFinal(out);
    }
}
