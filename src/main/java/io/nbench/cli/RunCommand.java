package io.nbench.cli;

import io.nbench.client.ExitCode;
import io.nbench.client.Verdict;
import io.nbench.report.SweepResult;
import io.nbench.transport.Transport;
import io.nbench.transport.TransportRegistry;
import java.io.IOException;
import java.io.PrintWriter;
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
        description = "The one-command local benchmark: starts a server of each server transport in a child JVM "
                + "on 127.0.0.1 (port 0, reported by the child), warms the client (in this JVM) up against every "
                + "server, then measures the servers in rounds, every server once per round and every other round "
                + "in reverse (A B, B A, ...), so the order of --servers does not favour any; stops them and ends "
                + "with a comparison table over every round (ratios to the first server with 99.9%% intervals). "
                + "With no options it compares every available transport on a short workload in about a minute on "
                + "2 cores. Every client option (load, output, -O) is passed on to the client.",
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
            "  # 10 measured iterations per server in 5 rounds of 2",
            "  nbench run --servers netty,nio --iterations 10 --rounds 5",
            "", "Defaults unless given: --iteration-time 1s --warmup 2 --iterations 5 (2 warmup rounds and 5",
            "measured rounds of 1 iteration per server).",
            "Exit codes: the worst of each server's result over every round (see nbench client --help) and of",
            "a client that could not run; 1 if a server cannot start; 130 on SIGINT."})
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

    @Option(names = "--rounds", paramLabel = "N",
            description = "Measure the servers in N rounds, each server once per round (A B C, then C B A, ...), "
                    + "after --warmup rounds of 1 iteration against each server (not measured); the --iterations "
                    + "are dealt out over the rounds and every round counts in each server's document and the "
                    + "comparison (default: as many rounds as --iterations, 1 measured iteration per server per "
                    + "round; 1 to --iterations; not with --forks or --start-at, whose clients run in one piece).")
    Integer rounds;

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
        ChildClientPlan plan = withShortDefaults(parsed);
        int warmups = parsed.hasMatchedOption("--warmup") ? client.load.warmup : DEFAULT_WARMUP;
        int iterations = parsed.hasMatchedOption("--iterations") ? client.load.iterations : DEFAULT_ITERATIONS;
        // --forks: each fork is a fresh client JVM that warms itself up against its own server, and its
        // document is the fork's; --start-at: the client's first measured iteration starts at an instant. Both
        // run each server's client in one piece, as the client alone would.
        boolean inRounds = client.load.forks == 1 && !parsed.hasMatchedOption("--start-at");
        int roundCount = rounds(inRounds, iterations, parsed);
        Verdict verdict = new Verdict(client.output.maxErrors(client.spec), client.output.thresholds(client.spec));
        RunFiles files;
        try {
            files = RunFiles.prepare(spec, client.output.hdrLog, client.output.hgrm, client.load.forks, resultsDir,
                    report, chosen);
        } catch (RunFiles.CannotWrite e) {
            err.println("nbench run: " + e.getMessage());
            return ExitCode.COULD_NOT_RUN;
        }
        if (parsed.hasMatchedOption("--start-at")) {
            String given = parsed.matchedOption("--start-at").stringValues().get(0);
            startAtFromNow = given.strip().startsWith("+") ? given : null;
        }
        // SIGINT/SIGTERM: the client in progress prints and writes its partial result, no further round starts,
        // the servers are stopped (their metrics printed), the files measured so far are kept, the scratch
        // directory removed; then 130.
        Interruption interruption = Interruption.install("nbench-run-interrupt", Duration.ofSeconds(40),
                () -> stopRequested.set(true), () -> {
                    out.flush();
                    files.close();
                });
        List<RunServer> running = new ArrayList<>();
        try {
            int worst = startServers(chosen, client.transport, running, out, err);
            if (inRounds) {
                RunInRounds.Client each = (server, p, withStats, to, result) -> clientAgainst(server,
                        client.transport, p, files, withStats, to, err, result);
                worst = ExitCode.first(worst, new RunInRounds(each, files, verdict, stopRequested,
                        serverStats && !inProcess, out, err).measure(running, plan, warmups, iterations, roundCount));
            } else {
                worst = ExitCode.first(worst, measureEachInOnePiece(running, client.transport, plan, files, out, err));
                RunServer.stopAll(running, out);
                running.forEach(s -> files.measured(s.transport()));
            }
            out.println();
            return ExitCode.first(worst, files.finish(out, err));
        } finally {
            running.forEach(RunServer::close);
            files.close();
            out.flush();
            interruption.close();
        }
    }

    /** {@code --rounds} checked; 1 when the client runs in one piece. */
    private int rounds(boolean inRounds, int iterations, ParseResult parsed) {
        if (!inRounds) {
            if (rounds != null && rounds > 1) {
                throw new ParameterException(spec.commandLine(), "--rounds deals the iterations of the client in this "
                        + "JVM out over the servers; with " + (parsed.hasMatchedOption("--start-at") ? "--start-at"
                        : "--forks") + " each server's client runs in one piece: leave out --rounds");
            }
            return 1;
        }
        int n = rounds == null ? iterations : rounds;
        if (n < 1 || n > iterations) {
            throw new ParameterException(spec.commandLine(), "--rounds " + n + " must be between 1 and --iterations ("
                    + iterations + "): each round measures every server at least once");
        }
        return n;
    }

    /**
     * Every server started before any client runs, in {@code --servers} order, each kept running until its
     * last round; a server that cannot start is named (exit 1) and left out.
     */
    private int startServers(List<Transport> chosen, TransportOptions client, List<RunServer> running,
                             PrintWriter out, PrintWriter err) {
        int worst = ExitCode.OK;
        for (Transport server : chosen) {
            if (stopRequested.get()) {
                return ExitCode.first(worst, ExitCode.INTERRUPTED);
            }
            out.println();
            out.println("=== server " + server.name() + (inProcess ? " (in this JVM)" : " (child JVM)") + " ===");
            Map<String, String> options = serverOptions(server, client.transportOptions);
            try {
                RunServer s = inProcess ? RunServer.inThisJvm(server, client.protocol, serverIoThreads, options, err)
                        : RunServer.child(server, client.protocol, serverIoThreads, options, serverStats);
                running.add(s);
                if (s.banner() != null) {
                    out.println(s.banner());
                }
            } catch (IOException | RuntimeException e) {
                if (stopRequested.get()) {
                    return ExitCode.first(worst, ExitCode.INTERRUPTED); // SIGINT while the server started
                }
                err.println("nbench run: server " + server.name() + " could not start: " + e.getMessage());
                worst = ExitCode.first(worst, ExitCode.COULD_NOT_RUN);
            }
            out.flush();
        }
        return worst;
    }

    /** {@code --forks}, {@code --start-at}: each server's client in one piece, with its own warmup, as today. */
    private int measureEachInOnePiece(List<RunServer> running, TransportOptions client, ChildClientPlan plan,
                                      RunFiles files, PrintWriter out, PrintWriter err) {
        int worst = ExitCode.OK;
        for (RunServer s : running) {
            if (stopRequested.get()) {
                return ExitCode.first(worst, ExitCode.INTERRUPTED);
            }
            out.println();
            out.println("=== measuring server " + s.transport().name() + " ===");
            out.flush();
            int code = clientAgainst(s, client, files.filesOf(s.transport(), plan), files, serverStats && !inProcess,
                    out, err, null);
            worst = ExitCode.first(worst, code);
            if (code == ExitCode.INTERRUPTED || code == ExitCode.USAGE) {
                break;
            }
        }
        return worst;
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
    private static final int DEFAULT_WARMUP = 2;
    private static final int DEFAULT_ITERATIONS = 5;

    private ChildClientPlan withShortDefaults(ParseResult parsed) {
        ChildClientPlan plan = ChildClientPlan.of(parsed.commandSpec(), spec.commandLine().getParseResult().originalArgs());
        if (!parsed.hasMatchedOption("--msgs") && !parsed.hasMatchedOption("--iteration-time")) {
            plan = plan.with("--iteration-time", Duration.ofSeconds(1));
        }
        if (!parsed.hasMatchedOption("--warmup")) {
            plan = plan.with("--warmup", DEFAULT_WARMUP);
        }
        if (!parsed.hasMatchedOption("--iterations")) {
            plan = plan.with("--iterations", DEFAULT_ITERATIONS);
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

    /**
     * Runs {@code plan}'s client against {@code s}: the -O options of its own transports, its server's monitor
     * when {@code withStats}; the client's exit code, its typed result to {@code result} (may be null).
     */
    private int clientAgainst(RunServer s, TransportOptions client, ChildClientPlan plan, RunFiles files,
                              boolean withStats, PrintWriter out, PrintWriter err,
                              java.util.function.Consumer<SweepResult> result) {
        TransportRegistry registry = TransportRegistry.load();
        Transport server = s.transport();
        plan = plan.with("-O", optionsOf(registry, client.transportOptions,
                inProcess ? List.of(server.name()) : client.impls()));
        if (inProcess) {
            plan = plan.with("--impl", server.name()).with("--allow-in-jvm", true);
        }
        if (withStats && s.monitorToken() != null) {
            try {
                plan = plan.with("--server-stats", true).with("--monitor-host", "127.0.0.1")
                        .with("--monitor-port", s.monitorPort())
                        .with("--monitor-token-file", files.monitorTokenFile(server, s.monitorToken().reveal()));
            } catch (IOException e) {
                err.println("nbench run: cannot write the monitor token of server " + server.name() + ": "
                        + e.getMessage());
                return ExitCode.COULD_NOT_RUN;
            }
        }
        return fromNow(plan).with("--port", s.port()).execute(out, err, result);
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
}
