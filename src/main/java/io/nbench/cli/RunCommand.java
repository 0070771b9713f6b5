package io.nbench.cli;

import io.nbench.client.ClientSpec;
import io.nbench.client.ExitCode;
import io.nbench.client.Verdict;
import io.nbench.report.SweepResult;
import io.nbench.report.json.ResultDoc;
import io.nbench.transport.Transport;
import io.nbench.transport.TransportRegistry;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = "The one-command local benchmark: starts a server of each server transport in a child JVM "
                + "on 127.0.0.1 (port 0, reported by the child), warms the client (in this JVM) up against every "
                + "server, then measures the servers in rounds, every server once per round and every other round "
                + "in reverse (A B, B A, ...), so the order of --servers does not favour any; stops them and ends "
                + "with a comparison over every round: a block per server against the first (ratios with 99.9%% intervals). "
                + "With no options it compares every available transport on a short workload in about a minute on "
                + "2 cores. Every client option (load, output, -O) is passed on to the client.",
        footer = {"", "Examples:",
            "  # every server transport, netty client, defaults",
            "  nbench run",
            "  nbench run --impl mina --servers mina,netty   # client: --impl",
            "  # in-JVM transports: the framework without the kernel",
            "  nbench run --in-process",
            "  # frameworks' executors on echo; the servers' CPU is shown unless",
            "  # --no-server-stats",
            "  nbench run --servers mina,netty --protocol echo -O mina.executor=2 \\",
            "      -O netty.executor=2",
            "  # HTTP servers answering bodies of --size bytes (or --response-size);",
            "  # run gives the client each server's URL",
            "  nbench run --servers netty,nio --protocol http --size 100",
            "  # capacity per server: the highest rate within the objective",
            "  nbench run --servers netty,mina --find-rate --slo 'p99<=10ms'",
            "  # TLS: each server makes a self-signed certificate, which its client",
            "  # accepts (--tls-insecure implied)",
            "  nbench run --tls --servers netty,blocking",
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
            completionCandidates = TransportOptions.TransportNames.class,
            description = "Server transports to compare, in this order (default: every available one; with "
                    + "--in-process every in-JVM one; with --tls every one with TLS).")
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

    @Option(names = "--verbose", description = "Print each round's client report and each server's metrics in full "
            + "(default: the client's header once, a line per round, two per server; summaries, comparison alike).")
    boolean verbose;

    @Unmatched
    List<String> clientArgs = new ArrayList<>();

    /** Set on SIGINT/SIGTERM: no further server starts. */
    private final AtomicBoolean stopRequested = new AtomicBoolean();

    /** The client's timing unless the user gives it: short, so run with no options takes about a minute. */
    private static final int DEFAULT_WARMUP = 2;
    private static final int DEFAULT_ITERATIONS = 5;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        TransportRegistry registry = TransportRegistry.load();
        TransportOptions.checkIoThreads(spec, "--server-io-threads", serverIoThreads);
        RunChecks checks = new RunChecks(spec, inProcess);
        ParseResult parsed = checks.parseClient(clientArgs);
        ClientCommand client = parsed.commandSpec().commandLine().getCommand();
        List<Transport> chosen = checks.chooseServers(registry, servers);
        if (client.tls.common.on && !inProcess && (servers == null || servers.isEmpty())) {
            chosen = checks.withTls(registry, chosen, out);
        }
        checks.checkTransportOptionsInUse(registry, client.transport, chosen);
        int responseSize = checks.serverResponseSize(client);
        int warmups = parsed.hasMatchedOption("--warmup") ? client.load.warmup : DEFAULT_WARMUP;
        int iterations = parsed.hasMatchedOption("--iterations") ? client.load.iterations : DEFAULT_ITERATIONS;
        ClientSpec plan = withShortTiming(client, warmups, iterations);
        if (client.tls.common.on) {
            checks.checkTls(client);
            plan = plan.trustingAnyCertificate();
            out.println("nbench run: --tls: each server makes a self-signed certificate in memory at start, and its "
                    + "client accepts it (--tls-insecure)");
        }
        // --forks: each fork is a fresh client JVM warmed up against its own server; --start-at: the first measured
        // iteration starts at an instant; --find-rate: each step's rate follows from the last; --rate-sweep: one
        // curve per server. All run each server's client in one piece, as the client alone would.
        boolean inRounds = client.load.forks == 1 && !parsed.hasMatchedOption("--start-at") && !client.capacity.findRate
                && client.sweep.rateSweep == null;
        int roundCount = checks.rounds(rounds, inRounds, iterations, parsed);
        Verdict verdict = new Verdict(client.output.maxErrors(client.spec), client.output.thresholds(client.spec));
        RunFiles files;
        try {
            files = RunFiles.prepare(spec, client.output.hdrLog, client.output.hgrm, client.load.forks, resultsDir,
                    report, chosen);
        } catch (RunFiles.CannotWrite e) {
            err.println("nbench run: " + e.getMessage());
            return ExitCode.COULD_NOT_RUN;
        }
        String startAtFromNow = null;
        if (parsed.hasMatchedOption("--start-at")) {
            String given = parsed.matchedOption("--start-at").stringValues().get(0);
            startAtFromNow = given.strip().startsWith("+") ? given : null;
        }
        RunClient clients = new RunClient(client.transport, inProcess, files, startAtFromNow, err);
        // SIGINT/SIGTERM: the client in progress prints and writes its partial result, no further round starts, the
        // servers stop (metrics printed), the files measured so far are kept, the scratch directory goes; then 130.
        Interruption interruption = Interruption.install("nbench-run-interrupt", Duration.ofSeconds(40),
                () -> stopRequested.set(true), () -> {
                    out.flush();
                    files.close();
                });
        List<RunServer> running = new ArrayList<>();
        try {
            int worst = RunServer.startAll(chosen, inProcess, client.transport.protocol, responseSize, serverIoThreads,
                    client.transport.transportOptions, client.tls.common.serverArguments(), serverStats, running,
                    stopRequested, verbose, files.scratch(), out, err);
            if (inRounds) {
                worst = ExitCode.first(worst, new RunInRounds(clients::run, files, verdict, stopRequested,
                        serverStats && !inProcess, verbose, out, err).measure(running, plan, warmups, iterations,
                        roundCount));
            } else {
                List<RunServer> measured = running;
                if (client.capacity.findRate || client.sweep.rateSweep != null) {
                    // Each search runs in one piece, so without this the first server's search would meet the
                    // coldest client (measured: a 5x order effect on a busy machine).
                    List<RunServer> usable = new ArrayList<>(running);
                    int warm = RunWarmup.run(clients::run, files, running, usable, plan, warmups, out,
                            (s, r, document) -> { });
                    worst = ExitCode.first(worst, warm);
                    measured = warm == ExitCode.INTERRUPTED || warm == ExitCode.USAGE ? List.of() : usable;
                }
                worst = ExitCode.first(worst, measureEachInOnePiece(measured, clients, plan, files, out));
                RunServer.stopAll(running, out);
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

    /**
     * {@code --forks}, {@code --start-at}: each server's client in one piece, with its own warmup, as today;
     * each server's documents (its client's, or each fork's) handed to {@code files}.
     */
    private int measureEachInOnePiece(List<RunServer> running, RunClient clients, ClientSpec plan,
                                      RunFiles files, PrintWriter out) {
        int worst = ExitCode.OK;
        for (RunServer s : running) {
            if (stopRequested.get()) {
                return ExitCode.first(worst, ExitCode.INTERRUPTED);
            }
            out.println();
            out.println("=== measuring server " + s.transport().name() + " ===");
            out.flush();
            Path document = files.documentOf(s.transport());
            List<RunFiles.Document> documents = new ArrayList<>();
            int code = clients.run(s, files.filesOf(s.transport(), plan), serverStats && !inProcess, out,
                    new ChildClientListener() {
                        @Override
                        public void ran(SweepResult result, ResultDoc doc) {
                            documents.add(new RunFiles.Document(document.getFileName().toString(), doc,
                                    Files.isRegularFile(document) ? document : null));
                        }

                        @Override
                        public void forked(int fork, Path file, ResultDoc doc) {
                            documents.add(new RunFiles.Document(file.getFileName().toString(), doc, file));
                        }
                    });
            files.measured(s.transport(), documents);
            worst = ExitCode.first(worst, code);
            if (code == ExitCode.INTERRUPTED || code == ExitCode.USAGE) {
                break;
            }
        }
        return worst;
    }

    /** The client's settings: the user's options, and run's short timing for what the user left out. */
    private ClientSpec withShortTiming(ClientCommand client, int warmups, int iterations) {
        ClientSpec plan = ChildClient.settingsOf(client, spec.commandLine().getParseResult().originalArgs());
        if (plan.load().msgs() == null && plan.load().iterationTime() == null) { // neither has a default
            plan = plan.withIterationTime(Duration.ofSeconds(1));
        }
        return plan.withIterations(warmups, iterations);
    }
}
