package io.nbench.cli;

import io.nbench.client.ExitCode;
import io.nbench.monitor.MonitorToken;
import io.nbench.protocol.Protocol;
import io.nbench.server.ChildServer;
import io.nbench.transport.IoThreads;
import io.nbench.transport.RunningServer;
import io.nbench.transport.ServerEvents;
import io.nbench.transport.ServerSettings;
import io.nbench.transport.SocketSettings;
import io.nbench.transport.Transport;
import io.nbench.transport.TransportRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = "The one-command local benchmark: for each server transport, starts a server in a child JVM "
                + "on 127.0.0.1 (port 0, reported by the child), runs the client against it, stops it, and ends "
                + "with a comparison table (ratios to the first server with 99.9%% intervals). With no options it "
                + "compares every available transport on a short workload in about a minute on 2 cores. Every "
                + "client option (load, output, -O) is passed on to the client.",
        footer = {"", "Examples:",
            "  # every server transport, netty client, defaults",
            "  nbench run",
            "  nbench run --servers netty,nio --size 5k --window 16",
            "  # the client transport is --impl (default netty)",
            "  nbench run --impl mina --servers mina,netty",
            "  # in-JVM transports: the framework without the kernel",
            "  nbench run --in-process",
            "  # keep each server's result document",
            "  nbench run --results-dir results/",
            "  # frameworks' executors on echo; the servers' CPU is shown unless",
            "  # --no-server-stats",
            "  nbench run --servers mina,netty --protocol echo -O mina.executor=2 \\",
            "      -O netty.executor=2",
            "", "Defaults unless given: --iteration-time 1s --warmup 2 --iterations 5.",
            "Exit codes: the worst of the client runs (see nbench client --help); 1 if a server cannot start."})
final class RunCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--servers", paramLabel = "LIST", split = ",",
            description = "Server transports to compare, in this order (default: every available one; with "
                    + "--in-process every in-JVM one).")
    List<String> servers;

    @Option(names = "--in-process", description = "Run in-JVM transports (netty-local, mina-vmpipe): each server in "
            + "this JVM, its client the same transport (default: off, network transports in child JVMs).")
    boolean inProcess;

    @Option(names = "--results-dir", paramLabel = "DIR",
            description = "Keep each server's result document here as SERVER.json (SERVER.forkN.json with --forks), "
                    + "written as --out is (default: kept only for the comparison, in a temporary directory removed "
                    + "at the end).")
    Path resultsDir;

    @Option(names = "--report", paramLabel = "FILE",
            description = "After the comparison, write every server's results as one HTML page here (what nbench "
                    + "report --html draws: spectra, throughput, the comparison as a chart; default: none).")
    Path report;

    @Option(names = "--server-io-threads", paramLabel = "N", defaultValue = "0",
            description = "I/O threads of each server. Default: 0, half of the ${nbench.cores} cores, at least 1: "
                    + "the client runs on this machine too and takes the other half.")
    int serverIoThreads;

    @Option(names = "--server-stats", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Start each child server with a monitor (127.0.0.1, a free port, a random token passed "
                    + "in its environment) and read the server's CPU, requests and processing time under each "
                    + "iteration, in each result document and beside the client's CPU in the comparison "
                    + "(default: on; --no-server-stats: off; not with --in-process, whose server shares this "
                    + "JVM).")
    boolean serverStats;

    @Unmatched
    List<String> clientArgs = new ArrayList<>();

    /** {@code --start-at +D} as given: it counts from each client's start, as when the client runs alone. */
    private String startAtFromNow;

    /** Set on SIGINT/SIGTERM: no further server starts. */
    private final AtomicBoolean stopRequested = new AtomicBoolean();

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        TransportRegistry registry = TransportRegistry.load();
        TransportOptions.checkIoThreads(spec, "--server-io-threads", serverIoThreads);
        ParseResult parsed = parseClient();
        ClientCommand client = parsed.commandSpec().commandLine().getCommand();
        List<Transport> chosen = chooseServers(registry);
        checkTransportOptionsInUse(registry, client.transport, chosen);
        RunFiles files;
        try {
            files = RunFiles.prepare(spec, client.output.hdrLog, client.output.hgrm, client.load.forks, resultsDir,
                    report, chosen);
        } catch (RunFiles.CannotWrite e) {
            err.println("nbench run: " + e.getMessage());
            return ExitCode.COULD_NOT_RUN;
        }
        ChildClientPlan plan = withShortDefaults(parsed);
        if (parsed.hasMatchedOption("--start-at")) {
            String given = parsed.matchedOption("--start-at").stringValues().get(0);
            startAtFromNow = given.strip().startsWith("+") ? given : null;
        }
        // SIGINT/SIGTERM: the client in progress prints and writes its partial result, its server is stopped
        // (its metrics printed), the files measured so far are kept, the scratch directory removed; then 130.
        Interruption interruption = Interruption.install("nbench-run-interrupt", Duration.ofSeconds(40),
                () -> stopRequested.set(true), () -> {
                    out.flush();
                    files.close();
                });
        try {
            int worst = ExitCode.OK;
            for (Transport server : chosen) {
                if (stopRequested.get()) {
                    worst = ExitCode.first(worst, ExitCode.INTERRUPTED);
                    break;
                }
                out.println();
                out.println("=== server " + server.name() + (inProcess ? " (in this JVM)" : " (child JVM)") + " ===");
                out.flush();
                int code = runAgainst(server, client.transport, files.filesOf(server, plan), files, out, err);
                worst = ExitCode.first(worst, code);
                files.measured(server);
                if (code == ExitCode.INTERRUPTED || code == ExitCode.USAGE) {
                    break;
                }
            }
            out.println();
            return ExitCode.first(worst, files.finish(out, err));
        } finally {
            files.close();
            out.flush();
            interruption.close();
        }
    }

    /**
     * The client's options, parsed once before any server starts (a usage error is exit 2 at once); the
     * options run chooses itself are refused.
     */
    private ParseResult parseClient() {
        List<String> args = new ArrayList<>(List.of("client"));
        args.addAll(clientArgs);
        ParseResult parsed;
        try {
            parsed = Main.commandLine(spec.commandLine().getOut(), spec.commandLine().getErr())
                    .parseArgs(args.toArray(new String[0])).subcommand();
        } catch (ParameterException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        for (String forbidden : List.of("--port", "--host", "--format", "--out", "--monitor-port", "--monitor-host",
                "--monitor-token-file")) {
            if (parsed.hasMatchedOption(forbidden)) {
                throw new ParameterException(spec.commandLine(), forbidden + " is chosen by nbench run itself: leave "
                        + "it out (" + (forbidden.startsWith("--monitor") ? "run gives each server a monitor of its "
                        + "own; --no-server-stats turns that off)" : "use --results-dir to keep the result documents)"));
            }
        }
        if (inProcess && parsed.hasMatchedOption("--impl")) {
            throw new ParameterException(spec.commandLine(), "--impl is chosen by nbench run --in-process (each in-JVM "
                    + "server is measured with its own client): leave it out");
        }
        return parsed;
    }

    /** The client's plan: the user's options, and run's short timing for what the user left out. */
    private ChildClientPlan withShortDefaults(ParseResult parsed) {
        ChildClientPlan plan = ChildClientPlan.of(parsed.commandSpec(), spec.commandLine().getParseResult().originalArgs());
        if (!parsed.hasMatchedOption("--msgs") && !parsed.hasMatchedOption("--iteration-time")) {
            plan = plan.with("--iteration-time", Duration.ofSeconds(1));
        }
        if (!parsed.hasMatchedOption("--warmup")) {
            plan = plan.with("--warmup", 2);
        }
        if (!parsed.hasMatchedOption("--iterations")) {
            plan = plan.with("--iterations", 5);
        }
        return plan;
    }

    private List<Transport> chooseServers(TransportRegistry registry) {
        List<Transport> list = new ArrayList<>();
        if (servers == null || servers.isEmpty()) {
            for (Transport t : registry.all()) {
                if (t.inJvm() == inProcess && t.availability().available()) {
                    list.add(t);
                }
            }
            return list;
        }
        for (String name : servers) {
            Transport t;
            try {
                t = registry.get(name.trim());
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
            if (t.inJvm() != inProcess) {
                throw new ParameterException(spec.commandLine(), "server transport " + t.name() + (t.inJvm()
                        ? " runs in one JVM only: add --in-process" : " is a network transport: leave out --in-process"));
            }
            list.add(t);
        }
        return list;
    }

    /** Runs {@code plan}'s client against a server of transport {@code server}; the client's exit code. */
    private int runAgainst(Transport server, TransportOptions client, ChildClientPlan plan, RunFiles files,
                           PrintWriter out, PrintWriter err) {
        TransportRegistry registry = TransportRegistry.load();
        // Each side gets the -O options of its own transports.
        plan = plan.with("-O", optionsOf(registry, client.transportOptions,
                inProcess ? List.of(server.name()) : client.impls()));
        Map<String, String> serverOptions = serverOptions(server, client.transportOptions);
        if (inProcess) {
            plan = plan.with("--impl", server.name()).with("--allow-in-jvm", true);
            try (RunningServer s = startInProcess(server, client.protocol, serverOptions)) {
                return fromNow(plan).with("--port", s.address().getPort()).execute(out, err);
            } catch (IOException | RuntimeException e) {
                err.println("nbench run: server " + server.name() + " could not start: " + e.getMessage());
                return ExitCode.COULD_NOT_RUN;
            }
        }
        List<String> serverArgs = new ArrayList<>(List.of("--impl", server.name(), "--port", "0",
                "--protocol", client.protocol.label(), "--io-threads",
                Integer.toString(IoThreads.sharingTheMachine(serverIoThreads))));
        serverOptions.forEach((k, v) -> serverArgs.addAll(List.of("-O", k + "=" + v)));
        Map<String, String> environment = new LinkedHashMap<>();
        MonitorToken token = null;
        if (serverStats) {
            // A fresh token per server, in its environment (never argv); the client reads it from a file.
            token = MonitorToken.generate();
            environment.put(MonitorToken.ENV, token.reveal());
            serverArgs.addAll(List.of("--monitor-port", "0", "--monitor-bind", "127.0.0.1"));
        }
        try (ChildServer child = ChildServer.start(serverArgs, environment)) {
            out.println(child.banner());
            out.flush();
            if (token != null) {
                if (child.monitorPort() == 0) {
                    throw new IOException("it did not report its monitor's port");
                }
                plan = plan.with("--server-stats", true).with("--monitor-host", "127.0.0.1")
                        .with("--monitor-port", child.monitorPort())
                        .with("--monitor-token-file", files.monitorTokenFile(token.reveal()));
            }
            int code = fromNow(plan).with("--port", child.port()).execute(out, err);
            String metrics = child.stop();
            if (!metrics.isEmpty()) {
                out.println(metrics);
            }
            return code;
        } catch (IOException e) {
            if (stopRequested.get()) {
                return ExitCode.INTERRUPTED; // SIGINT while the server started
            }
            err.println("nbench run: server " + server.name() + " could not start: " + e.getMessage());
            return ExitCode.COULD_NOT_RUN;
        }
    }

    /** The plan with a relative {@code --start-at} counted from now, when this client starts. */
    private ChildClientPlan fromNow(ChildClientPlan plan) {
        return startAtFromNow == null ? plan : plan.with("--start-at", new Converters.When().convert(startAtFromNow));
    }

    /**
     * Each -O key must be used by the client or by one of the servers: the client gets the keys of its
     * transports, each server those of its own, and a key nobody uses is a usage error.
     */
    private void checkTransportOptionsInUse(TransportRegistry registry, TransportOptions client,
                                            List<Transport> chosen) {
        List<String> users = new ArrayList<>(chosen.stream().map(Transport::name).toList());
        if (!inProcess) {
            users.addAll(client.impls());
        }
        for (String key : client.transportOptions.keySet()) {
            Transport owner = TransportOptions.owner(registry, key);
            if (owner != null && !users.contains(owner.name())) {
                throw new ParameterException(spec.commandLine(), "-O " + key + " is an option of transport "
                        + owner.name() + ", which neither the client (" + (inProcess ? "--in-process"
                        : "--impl " + String.join(",", client.impls())) + ") nor a server (--servers "
                        + String.join(",", chosen.stream().map(Transport::name).toList()) + ") uses: leave it out");
            }
        }
    }

    /** The -O options of the transports {@code impls} (and the keys no transport owns), as given. */
    private static Map<String, String> optionsOf(TransportRegistry registry, Map<String, String> options,
                                                 List<String> impls) {
        Map<String, String> kept = new LinkedHashMap<>();
        options.forEach((key, value) -> {
            Transport owner = TransportOptions.owner(registry, key);
            if (owner == null || impls.contains(owner.name())) {
                kept.put(key, value);
            }
        });
        return kept;
    }

    /** The -O options that belong to this server transport; a comma list sweeps the client only. */
    private static Map<String, String> serverOptions(Transport server, Map<String, String> options) {
        Map<String, String> own = new LinkedHashMap<>();
        options.forEach((key, value) -> {
            if (key.startsWith(server.name() + ".") && !value.isEmpty() && !value.contains(",")) {
                own.put(key, value);
            }
        });
        return own;
    }

    private RunningServer startInProcess(Transport server, Protocol protocol, Map<String, String> options)
            throws IOException {
        TransportRegistry registry = TransportRegistry.load();
        return server.startServer(new ServerSettings(new InetSocketAddress("127.0.0.1", 0), protocol,
                new SocketSettings(IoThreads.sharingTheMachine(serverIoThreads), true, 0, 0), 16 * 1024 * 1024,
                registry.resolveOptions(server, options)), ServerEvents.NONE);
    }
}
