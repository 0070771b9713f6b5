package io.nbench.cli;

import io.nbench.client.CouldNotRun;
import io.nbench.client.ExitCode;
import io.nbench.client.ResolvedTransport;
import io.nbench.monitor.MonitorToken;
import io.nbench.server.BenchServer;
import io.nbench.server.CouldNotStart;
import io.nbench.server.FatalErrors;
import io.nbench.server.InvalidServerPlan;
import io.nbench.server.ServerPlan;
import io.nbench.server.ServerPlanBuilder;
import io.nbench.transport.TransportRegistry;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "server", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Runs a benchmark server with one transport until SIGINT/SIGTERM or --duration, then prints "
                + "its metrics. The first line of output says where it listens (with --port 0, the port chosen).",
        footer = {"", "Examples:",
            "  # netty on 127.0.0.1:7007, framed protocol",
            "  nbench server",
            "  nbench server --impl mina --port 9000",
            "  nbench server --protocol echo --io-threads 2",
            "  # HTTP/1.1 for ab, wrk or curl: 200 with 100 bytes to any request",
            "  nbench server --protocol http --response-size 100",
            "  # serve remote clients (explicit on purpose)",
            "  nbench server --bind 0.0.0.0",
            "  # any free port, stop after 30 s",
            "  nbench server --port 0 --duration 30s",
            "  # close connections idle (no complete request) for 30 s",
            "  nbench server --idle-timeout 30s",
            "  # TLS, self-signed certificate made in memory (clients: --tls-insecure)",
            "  nbench server --tls",
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
    ListenOptions listen;

    @Mixin
    BusinessOptions business;

    @Mixin
    ServerTlsOptions tls;

    @Option(names = "--bind", paramLabel = "ADDR", defaultValue = "127.0.0.1",
            description = "Address to listen on (default: ${DEFAULT-VALUE}; remote clients need an explicit 0.0.0.0).")
    String bind;

    @Option(names = "--max-frame", paramLabel = "SIZE", defaultValue = ServerPlan.DEFAULT_MAX_FRAME_TEXT, converter = Converters.Size.class,
            description = "Largest request payload and response length accepted (default: ${DEFAULT-VALUE}); a "
                    + "larger request closes its connection as a protocol error.")
    int maxFrame;

    @Option(names = "--response-size", paramLabel = "SIZE", defaultValue = "0", converter = Converters.Size.class,
            description = "--protocol http: the body of every response, in bytes (default: ${DEFAULT-VALUE}, a 200 "
                    + "with Content-Length: 0); framed requests say how large their response is, echo's is the "
                    + "request.")
    int responseSize;

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

    /**
     * Parses, maps the options to a {@link ServerPlan} (its rules are the usage errors), starts the
     * {@link BenchServer}, then waits for SIGINT/SIGTERM or --duration; the server's report ends it either way.
     */
    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ServerPlanBuilder builder = plan();
        ResolvedTransport resolved;
        try {
            resolved = transport.resolve(spec);
        } catch (CouldNotRun e) {
            err.println("nbench server: " + e.getMessage());
            return ExitCode.COULD_NOT_RUN;
        }
        ServerPlan plan = usageErrors(() -> builder.transport(resolved.transport(), resolved.options()).build());
        // From here on an error that escapes a server thread ends the process (exit 1, one line): a server
        // that lost a thread would keep its port open and serve nothing.
        FatalErrors.install();
        BenchServer server;
        try {
            server = BenchServer.start(plan, out, err);
        } catch (CouldNotStart e) {
            err.println("nbench server: " + e.getMessage());
            return ExitCode.COULD_NOT_RUN;
        }
        // The stop hook goes in before anything announces the server: a supervisor (or a test) may send
        // SIGTERM as soon as it reads the first line, and the report and exit 0 must follow even then.
        Thread hook = new Thread(() -> {
            server.close();
            // SIGINT/SIGTERM is how a server is meant to end: after a clean stop and its report, exit 0
            // rather than the JVM's 128 + signal, so that scripts and supervisors see success.
            Runtime.getRuntime().halt(ExitCode.OK);
        }, "nbench-server-shutdown");
        try {
            Runtime.getRuntime().addShutdownHook(hook);
        } catch (IllegalStateException e) {
            server.close(); // stopped by a signal while starting, before it announced anything
            return ExitCode.OK;
        }
        server.announce();
        if (!awaitStop(server, plan.duration())) {
            // --duration elapsed: stop here rather than in the hook.
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                return ExitCode.OK; // a signal came at the same instant: the hook stops, reports and ends the process
            }
            server.close();
        }
        return ExitCode.OK;
    }

    private static boolean awaitStop(BenchServer server, Duration duration) {
        try {
            return server.awaitStop(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The options mapped to a plan and checked (usage errors), all but the transport, resolved after them. */
    private ServerPlanBuilder plan() {
        transport.checkIoThreads(spec, "--io-threads");
        if (transport.impls().size() > 1) {
            throw new ParameterException(spec.commandLine(), "a server runs one transport: --impl "
                    + transport.impl + " names " + transport.impls().size() + " (start one server per transport)");
        }
        transport.checkOptionsInUse(spec, TransportRegistry.load(), transport.impls(), "use --impl %s");
        ServerPlanBuilder builder = ServerPlan.builder().bind(bind).port(transport.port).protocol(transport.protocol)
                .socket(transport.socket()).listen(listen.settings()).maxFrame(maxFrame).responseSize(responseSize)
                .idleTimeout(idleTimeout).maxConnections(maxConnections).duration(duration).reportInterval(reportInterval)
                .business(business.plan(spec))
                .monitorPort(monitor.port).monitorBind(monitor.bind).readyLine(readyLine)
                .tls(tls.common.choice(spec), tls.cert, tls.key).tlsHandshakeTimeout(tls.handshakeTimeout(spec));
        usageErrors(builder::check);
        return builder.monitorToken(monitorToken());
    }

    private <T> T usageErrors(Supplier<T> rules) {
        try {
            return rules.get();
        } catch (InvalidServerPlan e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
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
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }
}
