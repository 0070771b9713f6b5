package io.nbench.cli;

import io.nbench.protocol.Protocol;
import io.nbench.report.AtomicFiles;
import io.nbench.report.compare.CompareTable;
import io.nbench.report.compare.Comparison;
import io.nbench.report.compare.ResultFile;
import io.nbench.report.hdr.IntervalLogMerge;
import io.nbench.report.hdr.PercentileFiles;
import io.nbench.server.ChildServer;
import io.nbench.transport.RunningServer;
import io.nbench.transport.ServerEvents;
import io.nbench.transport.ServerSettings;
import io.nbench.transport.SocketSettings;
import io.nbench.transport.Transport;
import io.nbench.transport.TransportRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
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
            "  nbench run                                          # every server transport, netty client, defaults",
            "  nbench run --servers netty,nio --size 5k --window 16",
            "  nbench run --impl mina --servers mina,netty         # the client transport is --impl (default netty)",
            "  nbench run --in-process                             # in-JVM transports: the framework without the kernel",
            "  nbench run --results-dir results/                   # keep each server's result document",
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
            + "this JVM, its client the same transport.")
    boolean inProcess;

    @Option(names = "--results-dir", paramLabel = "DIR",
            description = "Keep each server's result document here as SERVER.json (SERVER.forkN.json with --forks), "
                    + "written as --out is (default: kept only for the comparison, in a temporary directory removed "
                    + "at the end).")
    Path resultsDir;

    @Option(names = "--server-io-threads", paramLabel = "N", defaultValue = "0",
            description = "I/O threads of each server; 0 = number of cores.")
    int serverIoThreads;

    @Unmatched
    List<String> clientArgs = new ArrayList<>();

    /** Set on SIGINT/SIGTERM: no further server starts. */
    private final AtomicBoolean stopRequested = new AtomicBoolean();

    /** One server's outcome: the client's exit code, its result documents and interval log in the scratch directory. */
    private record Measured(Transport server, int code, List<Path> documents, Path hdrLog) {
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        TransportRegistry registry = TransportRegistry.load();
        List<String> args = clientArguments();
        Protocol protocol = protocolOf(args);
        List<Transport> chosen = chooseServers(registry);
        // Each server's client writes its own files; run joins, renames or keeps them (see files()).
        String hdrLogArg = take(args, "--hdr-log");
        Path hdrLog = hdrLogArg == null ? null : Path.of(hdrLogArg);
        String hgrm = take(args, "--hgrm");
        checkFileOptions(args, hdrLog, hgrm, chosen.size());
        String problem = prepareFiles(hdrLog, chosen);
        if (problem != null) {
            err.println("nbench run: " + problem);
            return ExitCode.COULD_NOT_RUN;
        }
        Path scratch;
        try {
            scratch = Files.createTempDirectory("nbench-run");
        } catch (IOException e) {
            err.println("nbench run: cannot create a temporary directory: " + e.getMessage());
            return ExitCode.COULD_NOT_RUN;
        }
        // SIGINT/SIGTERM: the client in progress prints and writes its partial result, its server is stopped
        // (its metrics printed), the files measured so far are kept, the scratch directory removed; then 130.
        Interruption interruption = Interruption.install("nbench-run-interrupt", Duration.ofSeconds(40),
                () -> stopRequested.set(true), () -> {
                    out.flush();
                    deleteQuietly(scratch);
                });
        try {
            int worst = ExitCode.OK;
            List<Measured> measured = new ArrayList<>();
            for (Transport server : chosen) {
                if (stopRequested.get()) {
                    worst = worse(worst, ExitCode.INTERRUPTED);
                    break;
                }
                out.println();
                out.println("=== server " + server.name() + (inProcess ? " (in this JVM)" : " (child JVM)") + " ===");
                out.flush();
                List<String> client = new ArrayList<>(args);
                client.addAll(List.of("--out", scratch.resolve(server.name() + ".json").toString(), "--run-owns-files"));
                if (hdrLog != null) {
                    client.addAll(List.of("--hdr-log", scratch.resolve(server.name() + ".hlog").toString()));
                }
                if (hgrm != null) {
                    client.addAll(List.of("--hgrm", hgrmFor(hgrm, server, chosen.size())));
                }
                int code = runAgainst(server, protocol, client, out, err);
                worst = worse(worst, code);
                measured.add(new Measured(server, code, documents(scratch, server), scratch.resolve(server.name() + ".hlog")));
                if (code == ExitCode.INTERRUPTED || code == ExitCode.USAGE) {
                    break;
                }
            }
            out.println();
            return worse(worst, files(measured, hdrLog, out, err));
        } finally {
            deleteQuietly(scratch);
            out.flush();
            interruption.close();
        }
    }

    /**
     * After the last server: each server's documents copied to {@code --results-dir}, the interval logs joined
     * into {@code --hdr-log}, and the comparison. Returns 1 if a file could not be written or read.
     */
    private int files(List<Measured> measured, Path hdrLog, PrintWriter out, PrintWriter err) {
        int code = ExitCode.OK;
        List<Path> kept = new ArrayList<>();
        List<ResultFile> results = new ArrayList<>();
        for (Measured m : measured) {
            List<ResultFile> documents = new ArrayList<>();
            Path keptLast = null;
            for (Path d : m.documents()) {
                try {
                    documents.add(ResultFile.read(d));
                } catch (ResultFile.Unreadable e) {
                    err.println("nbench run: " + e.getMessage());
                    code = worse(code, ExitCode.COULD_NOT_RUN);
                }
                if (resultsDir != null) {
                    Path keep = resultsDir.resolve(d.getFileName());
                    try {
                        AtomicFiles.write(keep, Files.readAllBytes(d));
                        kept.add(keep);
                        keptLast = keep;
                    } catch (IOException e) {
                        err.println("nbench run: cannot write --results-dir file " + keep + ": " + AtomicFiles.describe(e));
                        code = worse(code, ExitCode.COULD_NOT_RUN);
                    }
                }
            }
            if (!documents.isEmpty()) {
                results.add(joined(m.server(), documents, keptLast));
            }
        }
        if (hdrLog != null) {
            Map<String, Path> logs = new LinkedHashMap<>();
            measured.stream().filter(m -> Files.isRegularFile(m.hdrLog()))
                    .forEach(m -> logs.put(m.server().name(), m.hdrLog()));
            if (!logs.isEmpty()) {
                try {
                    IntervalLogMerge.write(hdrLog, logs);
                } catch (IOException e) {
                    err.println("nbench run: cannot write --hdr-log " + hdrLog + ": " + AtomicFiles.describe(e));
                    code = worse(code, ExitCode.COULD_NOT_RUN);
                }
            }
        }
        if (results.size() >= 2) {
            out.println("=== comparison (A = " + results.get(0).path().getFileName() + ") ===");
            CompareTable.print(out, results, Comparison.compare(results));
        } else if (results.size() == 1) {
            out.println("One server measured: nothing to compare.");
        }
        if (!kept.isEmpty()) {
            out.println("Result documents: " + kept.stream().map(Path::toString).collect(Collectors.joining(", ")));
        }
        err.flush();
        return code;
    }

    /**
     * One server's documents as one result for the comparison: with {@code --forks} every fork's measured
     * iterations, like the client's FORKS SUMMARY. Named by the kept file, or by the server when none is kept.
     */
    private static ResultFile joined(Transport server, List<ResultFile> documents, Path keptLast) {
        Path name = documents.size() == 1 && keptLast != null ? keptLast
                : Path.of(server.name() + (documents.size() > 1 ? " (" + documents.size() + " forks)" : ""));
        if (documents.size() == 1) {
            return new ResultFile(name, documents.get(0).combinations());
        }
        Map<String, ResultFile.CombinationData> byName = new LinkedHashMap<>();
        for (ResultFile f : documents) {
            for (ResultFile.CombinationData c : f.combinations()) {
                ResultFile.CombinationData sum = byName.get(c.name());
                List<ResultFile.IterationData> its = new ArrayList<>(sum == null ? List.of() : sum.iterations());
                its.addAll(c.iterations());
                byName.put(c.name(), new ResultFile.CombinationData(c.name(), c.keys(), its));
            }
        }
        return new ResultFile(name, List.copyOf(byName.values()));
    }

    /** What the client wrote for {@code server}: SERVER.json, or with --forks SERVER.fork1.json ... in order. */
    private static List<Path> documents(Path scratch, Transport server) {
        Path single = scratch.resolve(server.name() + ".json");
        if (Files.isRegularFile(single)) {
            return List.of(single);
        }
        Pattern fork = Pattern.compile(Pattern.quote(server.name()) + "\\.fork(\\d+)\\.json");
        try (Stream<Path> files = Files.list(scratch)) {
            return files.filter(f -> fork.matcher(f.getFileName().toString()).matches())
                    .sorted(Comparator.comparingInt(f -> forkNumber(fork, f))).toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    private static int forkNumber(Pattern fork, Path f) {
        Matcher m = fork.matcher(f.getFileName().toString());
        return m.matches() ? Integer.parseInt(m.group(1)) : 0;
    }

    /** --hgrm for one server: {combination} becomes server-SERVER_{combination}, one file per server and combination. */
    private static String hgrmFor(String template, Transport server, int servers) {
        return servers == 1 ? template : template.replace(PercentileFiles.PLACEHOLDER,
                "server-" + server.name() + "_" + PercentileFiles.PLACEHOLDER);
    }

    /** Usage errors of the file options, before any server starts. */
    private void checkFileOptions(List<String> args, Path hdrLog, String hgrm, int servers) {
        if (hgrm != null && servers > 1 && !hgrm.contains(PercentileFiles.PLACEHOLDER)) {
            throw new ParameterException(spec.commandLine(), "--hgrm " + hgrm + " names one file but nbench run "
                    + "measures " + servers + " servers: put " + PercentileFiles.PLACEHOLDER + " in it, e.g. lat-"
                    + PercentileFiles.PLACEHOLDER + ".hgrm (one file per server and combination)");
        }
        if ((hdrLog != null || hgrm != null) && has(args, "--forks")) {
            throw new ParameterException(spec.commandLine(), "--forks keeps each fork's result document only: leave "
                    + "out --hdr-log and --hgrm, or run without --forks");
        }
    }

    /** The directory and files run will write, checked before any server starts; the problem, or null. */
    private String prepareFiles(Path hdrLog, List<Transport> chosen) {
        Path current = hdrLog;
        String option = "--hdr-log";
        try {
            if (hdrLog != null) {
                AtomicFiles.checkWritable(hdrLog);
            }
            if (resultsDir != null) {
                option = "--results-dir";
                current = resultsDir;
                Files.createDirectories(resultsDir);
                for (Transport t : chosen) {
                    current = resultsDir.resolve(t.name() + ".json");
                    AtomicFiles.checkWritable(current);
                }
            }
            return null;
        } catch (IOException e) {
            return "cannot write " + option + " " + current + ": " + AtomicFiles.describe(e);
        }
    }

    /** Removes {@code option} and its value from {@code args}; returns the last value given, or null. */
    private static String take(List<String> args, String option) {
        String value = null;
        for (int i = 0; i < args.size(); ) {
            String a = args.get(i);
            if (a.equals(option) && i + 1 < args.size()) {
                value = args.get(i + 1);
                args.subList(i, i + 2).clear();
            } else if (a.startsWith(option + "=")) {
                value = a.substring(option.length() + 1);
                args.remove(i);
            } else {
                i++;
            }
        }
        return value;
    }

    /** The client's arguments: the user's, plus run's short defaults for what the user left out. */
    private List<String> clientArguments() {
        List<String> args = new ArrayList<>(clientArgs);
        boolean timing = has(args, "--msgs") || has(args, "--iteration-time");
        if (!timing) {
            args.addAll(List.of("--iteration-time", "1s"));
        }
        if (!has(args, "--warmup")) {
            args.addAll(List.of("--warmup", "2"));
        }
        if (!has(args, "--iterations")) {
            args.addAll(List.of("--iterations", "5"));
        }
        for (String forbidden : List.of("--port", "--host", "--format", "--out")) {
            if (has(args, forbidden)) {
                throw new ParameterException(spec.commandLine(), forbidden + " is chosen by nbench run itself: leave "
                        + "it out (use --results-dir to keep the result documents)");
            }
        }
        // Check the client arguments once, before any server starts: a usage error is exit 2 at once.
        List<String> probe = new ArrayList<>(List.of("client"));
        probe.addAll(args);
        try {
            new CommandLine(new NbenchCommand()).setCaseInsensitiveEnumValuesAllowed(true)
                    .parseArgs(probe.toArray(new String[0]));
        } catch (ParameterException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        return args;
    }

    private static boolean has(List<String> args, String option) {
        return args.stream().anyMatch(a -> a.equals(option) || a.startsWith(option + "="));
    }

    private static Protocol protocolOf(List<String> args) {
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.startsWith("--protocol=")) {
                return Protocol.parse(a.substring("--protocol=".length()));
            }
            if (a.equals("--protocol") && i + 1 < args.size()) {
                return Protocol.parse(args.get(i + 1));
            }
        }
        return Protocol.FRAMED;
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

    private int runAgainst(Transport server, Protocol protocol, List<String> args, PrintWriter out, PrintWriter err) {
        List<String> client = new ArrayList<>(List.of("client"));
        client.addAll(args);
        if (inProcess) {
            client.addAll(List.of("--impl", server.name(), "--allow-in-jvm"));
        }
        if (inProcess) {
            try (RunningServer s = startInProcess(server, protocol, serverOptions(server, args))) {
                client.addAll(List.of("--port", Integer.toString(s.address().getPort())));
                return Main.commandLine(out, err).execute(client.toArray(new String[0]));
            } catch (IOException | RuntimeException e) {
                err.println("nbench run: server " + server.name() + " could not start: " + e.getMessage());
                return ExitCode.COULD_NOT_RUN;
            }
        }
        List<String> serverArgs = new ArrayList<>(List.of("--impl", server.name(), "--port", "0",
                "--protocol", protocol.label(), "--io-threads", Integer.toString(serverIoThreads)));
        serverOptions(server, args).forEach((k, v) -> serverArgs.addAll(List.of("-O", k + "=" + v)));
        try (ChildServer child = ChildServer.start(serverArgs)) {
            out.println(child.banner());
            out.flush();
            client.addAll(List.of("--port", Integer.toString(child.port())));
            int code = Main.commandLine(out, err).execute(client.toArray(new String[0]));
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

    /** The -O options among the client's arguments that belong to this server transport. */
    private static Map<String, String> serverOptions(Transport server, List<String> args) {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i < args.size(); i++) {
            String kv = args.get(i).equals("-O") && i + 1 < args.size() ? args.get(i + 1)
                    : args.get(i).startsWith("-O") ? args.get(i).substring(2) : null;
            if (kv == null || !kv.contains("=")) {
                continue;
            }
            String key = kv.substring(0, kv.indexOf('='));
            if (key.startsWith(server.name() + ".") && !kv.contains(",")) {
                options.put(key, kv.substring(kv.indexOf('=') + 1));
            }
        }
        return options;
    }

    private RunningServer startInProcess(Transport server, Protocol protocol, Map<String, String> options)
            throws IOException {
        TransportRegistry registry = TransportRegistry.load();
        return server.startServer(new ServerSettings(new InetSocketAddress("127.0.0.1", 0), protocol,
                new SocketSettings(serverIoThreads, true, 0, 0), 16 * 1024 * 1024,
                registry.resolveOptions(server, options)), ServerEvents.NONE);
    }

    /** The more serious of two exit codes, in SPEC order: 2, 1, 130, 4, 3, 0. */
    static int worse(int a, int b) {
        List<Integer> order = List.of(ExitCode.USAGE, ExitCode.COULD_NOT_RUN, ExitCode.INTERRUPTED, ExitCode.FAILED,
                ExitCode.THRESHOLD, ExitCode.OK);
        return order.indexOf(a) <= order.indexOf(b) ? a : b;
    }

    static void deleteQuietly(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException | UncheckedIOException e) {
            // a temporary directory left behind is harmless
        }
    }
}
