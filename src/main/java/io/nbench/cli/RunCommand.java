package io.nbench.cli;

import io.nbench.client.ExitCode;
import io.nbench.protocol.Protocol;
import io.nbench.server.ChildServer;
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
            description = "I/O threads of each server (default: ${nbench.cores}, the number of cores; 0 also means the "
                    + "number of cores).")
    int serverIoThreads;

    @Unmatched
    List<String> clientArgs = new ArrayList<>();

    /** Set on SIGINT/SIGTERM: no further server starts. */
    private final AtomicBoolean stopRequested = new AtomicBoolean();

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        TransportRegistry registry = TransportRegistry.load();
        TransportOptions.checkIoThreads(spec, "--server-io-threads", serverIoThreads);
        List<String> args = clientArguments();
        Protocol protocol = protocolOf(args);
        List<Transport> chosen = chooseServers(registry);
        checkTransportOptionsInUse(registry, args, chosen);
        RunFiles files;
        try {
            files = RunFiles.prepare(spec, args, resultsDir, report, chosen);
        } catch (RunFiles.CannotWrite e) {
            err.println("nbench run: " + e.getMessage());
            return ExitCode.COULD_NOT_RUN;
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
                List<String> client = new ArrayList<>(args);
                client.addAll(files.clientArguments(server));
                int code = runAgainst(server, protocol, client, out, err);
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
        if (inProcess && has(args, "--impl")) {
            throw new ParameterException(spec.commandLine(), "--impl is chosen by nbench run --in-process (each in-JVM "
                    + "server is measured with its own client): leave it out");
        }
        // Check the client arguments once, before any server starts: a usage error is exit 2 at once.
        List<String> probe = new ArrayList<>(List.of("client"));
        probe.addAll(args);
        try {
            Main.commandLine(spec.commandLine().getOut(), spec.commandLine().getErr())
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
        client.addAll(withoutForeignTransportOptions(args, inProcess ? List.of(server.name()) : clientImpls(args)));
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

    /** The client's transports: --impl (a comma list) or netty; with --in-process each server's own. */
    private static List<String> clientImpls(List<String> args) {
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            String value = a.startsWith("--impl=") ? a.substring("--impl=".length())
                    : a.equals("--impl") && i + 1 < args.size() ? args.get(i + 1) : null;
            if (value != null) {
                return List.of(value.split(",", -1)).stream().map(String::strip).toList();
            }
        }
        return List.of(TransportRegistry.DEFAULT);
    }

    /** The key of an -O argument ({@code -O k=v} at i, or {@code -Ok=v}), or null. */
    private static String transportOptionKey(List<String> args, int i) {
        String kv = args.get(i).equals("-O") && i + 1 < args.size() ? args.get(i + 1)
                : args.get(i).startsWith("-O") && args.get(i).length() > 2 ? args.get(i).substring(2) : null;
        if (kv == null) {
            return null;
        }
        return kv.contains("=") ? kv.substring(0, kv.indexOf('=')) : kv;
    }

    /**
     * Each -O key must be used by the client or by one of the servers: the client gets the keys of its
     * transports, each server those of its own, and a key nobody uses is a usage error.
     */
    private void checkTransportOptionsInUse(TransportRegistry registry, List<String> args, List<Transport> chosen) {
        List<String> users = new ArrayList<>(chosen.stream().map(Transport::name).toList());
        if (!inProcess) {
            users.addAll(clientImpls(args));
        }
        for (int i = 0; i < args.size(); i++) {
            String key = transportOptionKey(args, i);
            Transport owner = key == null ? null : TransportOptions.owner(registry, key);
            if (owner != null && !users.contains(owner.name())) {
                throw new ParameterException(spec.commandLine(), "-O " + key + " is an option of transport "
                        + owner.name() + ", which neither the client (" + (inProcess ? "--in-process"
                        : "--impl " + String.join(",", clientImpls(args))) + ") nor a server (--servers "
                        + String.join(",", chosen.stream().map(Transport::name).toList()) + ") uses: leave it out");
            }
        }
    }

    /** The client's arguments without the -O options of transports the client does not run (servers' ones). */
    private static List<String> withoutForeignTransportOptions(List<String> args, List<String> clientImpls) {
        TransportRegistry registry = TransportRegistry.load();
        List<String> kept = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String key = transportOptionKey(args, i);
            Transport owner = key == null ? null : TransportOptions.owner(registry, key);
            if (owner != null && !clientImpls.contains(owner.name())) {
                if (args.get(i).equals("-O")) {
                    i++;
                }
                continue;
            }
            kept.add(args.get(i));
        }
        return kept;
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
}
