package io.nbench.cli;

import io.nbench.load.BenchmarkRun;
import io.nbench.load.LoadSpec;
import io.nbench.load.Measure;
import io.nbench.load.RunFailure;
import io.nbench.load.RunListener;
import io.nbench.load.RunResult;
import io.nbench.report.CombinationResult;
import io.nbench.report.Status;
import io.nbench.report.SweepResult;
import io.nbench.report.threshold.Threshold;
import io.nbench.sweep.Combination;
import io.nbench.sweep.Sweep;
import io.nbench.transport.ClientSettings;
import io.nbench.transport.ClientTransport;
import io.nbench.transport.ErrorKind;
import io.nbench.transport.Transport;
import io.nbench.transport.TransportFailure;
import io.nbench.transport.TransportOption;
import io.nbench.transport.TransportRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "client", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Connects to a server and runs the benchmark: warmup and measured iterations in a closed "
                + "loop, one line per iteration, then a summary with 99.9%% confidence intervals. Comma lists in "
                + "--impl, --size, --threads, --window, --rate and -O key=v1,v2 run every combination.",
        footer = {"", "Examples:",
            "  # 4 threads, 1 KiB, netty, 127.0.0.1:7007",
            "  nbench client",
            "  nbench client --threads 50 --msgs 50000 --size 5k",
            "  nbench client --iteration-time 2s --iterations 5 --window 16",
            "  nbench client --measure send --response-size 0 --threads 50 --window 10",
            "  nbench client --protocol echo --port 7 --host some-echo-server",
            "  # 2 threads share each connection",
            "  nbench client --connections 4 --threads 8",
            "  nbench client --size 1k,5k,10k --out results.json --hdr-log lat.hlog",
            "  nbench client --format json | jq '.summary.throughput.mean'",
            "  nbench client --format csv --no-header >> all-runs.csv",
            "  nbench client --threshold 'p99<2ms' --threshold 'errors==0' || echo slower",
            "", "Exit codes (the first that applies wins): 2 usage error, 1 could not run, aborted or results not "
                + "written, 130 interrupted (the partial result is printed and written), 4 errors over --max-errors, "
                + "3 a --threshold breached, 0 ok."})
final class ClientCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    /** Set by {@code nbench run --in-process}, whose in-JVM server lives in the same JVM as this client. */
    @Option(names = "--allow-in-jvm", hidden = true)
    boolean allowInJvm;

    /**
     * Set by {@code nbench run}: its {@code --out} lies in run's temporary directory, and run names the result
     * files it keeps itself, so {@code --forks} must not name files that are gone when run ends.
     */
    @Option(names = "--run-owns-files", hidden = true)
    boolean runOwnsFiles;

    @Mixin
    TransportOptions transport;

    @Mixin
    LoadOptions load;

    @Mixin
    OutputOptions output;

    @Mixin
    ServerStatsOptions serverStats;

    /** With --server-stats: the connection to the server's monitor. */
    private io.nbench.monitor.ServerStats stats;

    @Option(names = "--start-at", paramLabel = "TIME", converter = Converters.When.class,
            description = "Time-based iterations: connect and warm up early, so that the first measured iteration "
                    + "starts at this instant (ISO-8601 with offset, e.g. 2026-11-23T10:00:00Z, or +30s from now): "
                    + "client hosts given the same instant measure the same windows, for nbench report --merge. "
                    + "Their clocks must agree (NTP). Default: at once.")
    java.time.Instant startAt;

    /** With {@code --start-at}: when the first (warmup) iteration starts, so the first measured one starts on it. */
    private java.time.Instant firstIterationAt;

    /** Set by the interrupt hook: no further combination starts. */
    private final AtomicBoolean stopRequested = new AtomicBoolean();

    /** One combination, resolved before anything runs so a bad one is a usage error up front. */
    private record Planned(Combination combination, ResolvedTransport transport, LoadSpec load) {
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (this.load.forks < 1) {
            throw usage("--forks must be at least 1");
        }
        transport.checkIoThreads(spec, "--io-threads");
        if (this.load.host.isBlank()) {
            throw usage("--host is empty: name the server, e.g. --host 127.0.0.1");
        }
        if (startAt != null && this.load.forks > 1) {
            throw usage("--start-at aligns one run's first iteration across hosts; --forks runs several one after "
                    + "another: use one of them");
        }
        if (startAt != null) {
            if (this.load.iterationTime == null) {
                throw usage("--start-at needs --iteration-time: count-based iterations end at different times on each "
                        + "host, so only time-based ones can cover the same windows");
            }
            // Warmup iterations run back to back before the instant, so the first measured one starts on it.
            firstIterationAt = startAt.minus(this.load.iterationTime.multipliedBy(this.load.warmup));
            if (!firstIterationAt.isAfter(java.time.Instant.now())) {
                throw usage("--start-at " + startAt + " leaves no time for connecting and the warmup (" + this.load.warmup
                        + " x " + io.nbench.units.Durations.format(this.load.iterationTime) + "): give a later instant");
            }
        }
        if (output.hostLabel != null && output.hostLabel.isBlank()) {
            throw usage("--host-label is empty: give the name this host goes by, e.g. --host-label client-1");
        }
        if (this.load.forks > 1) {
            return new ForkRunner(spec, output, this.load.forks, !runOwnsFiles).run(out, err);
        }
        List<Double> percentiles = output.percentiles(spec);
        List<Threshold> thresholds = output.thresholds(spec);
        OutputOptions.MaxErrors limit = output.maxErrors(spec);
        TransportRegistry registry = TransportRegistry.load();
        Sweep sweep = sweep(registry);
        List<Combination> combinations = sweep.product((keys, key) -> applies(registry, keys.get("impl"), key));
        List<Planned> plan = new ArrayList<>();
        try {
            for (Combination c : combinations) {
                plan.add(plan(registry, c, percentiles));
            }
        } catch (ResolvedTransport.CouldNotRun e) {
            err.println("nbench client: " + e.getMessage());
            return ExitCode.COULD_NOT_RUN;
        }
        InetSocketAddress remote;
        try {
            remote = new InetSocketAddress(InetAddress.getByName(this.load.host), transport.port);
        } catch (UnknownHostException e) {
            err.println("nbench client: unknown host '" + this.load.host + "': check --host");
            return ExitCode.COULD_NOT_RUN;
        }
        String target = this.load.host + ":" + transport.port;
        try {
            stats = serverStats.open(spec, this.load.host, Duration.ofSeconds(10), err);
        } catch (io.nbench.monitor.MonitorClient.Failure e) {
            err.println("nbench client: " + e.getMessage());
            return ExitCode.COULD_NOT_RUN;
        }

        ClientOutputs outputs;
        try {
            outputs = ClientOutputs.open(spec, output, out, err, sweep.keys(), percentiles, combinations.size());
        } catch (ClientOutputs.CannotWrite e) {
            err.println("nbench client: " + e.getMessage());
            closeStats();
            return ExitCode.COULD_NOT_RUN;
        }
        if (stats != null) {
            outputs.serverStats(stats.byCombination());
        }

        AtomicReference<BenchmarkRun> current = new AtomicReference<>();
        // SIGINT/SIGTERM: cut the current run short; this thread then prints and writes what was measured.
        Interruption interruption = Interruption.install("nbench-client-interrupt", Duration.ofSeconds(10), () -> {
            stopRequested.set(true);
            BenchmarkRun run = current.get();
            if (run != null) {
                run.interrupt();
            }
        }, out::flush);
        try {
            List<CombinationResult> done = new ArrayList<>();
            String error = null;
            int number = 0;
            for (Planned p : plan) {
                if (stopRequested.get()) {
                    break;
                }
                number++;
                try {
                    CombinationResult r = runOne(p, number, remote, target, outputs, current, thresholds, limit, err);
                    done.add(r);
                    if (r.status() == Status.INTERRUPTED || r.status() == Status.ABORTED) {
                        break; // the server is gone or the user wants out: later combinations would fail the same way
                    }
                } catch (RunFailure e) {
                    error = e.getMessage() + hint(e, p.transport().transport().name());
                    err.println("nbench client: " + error);
                    break;
                } catch (IOException | RuntimeException e) {
                    error = String.valueOf(e.getMessage());
                    err.println("nbench client: " + error);
                    break;
                }
            }
            SweepResult result = verdict(target, sweep.keys(), done, error);
            return outputs.finish(result, combinations.size() > 1);
        } finally {
            out.flush();
            outputs.close();
            closeStats();
            interruption.close();
        }
    }

    private void closeStats() {
        if (stats != null) {
            stats.close();
        }
    }

    /** The sweep's dimensions: impl, the load options, then each -O key given several values. */
    private Sweep sweep(TransportRegistry registry) {
        Sweep sweep = new Sweep();
        List<String> impls = transport.impls();
        for (String impl : impls) {
            try {
                registry.get(impl);
            } catch (IllegalArgumentException e) {
                throw usage(e.getMessage());
            }
        }
        sweep.add("impl", impls);
        transport.checkOptionsInUse(spec, registry, impls, "add %s to --impl");
        this.load.sweepDimensions().forEach(sweep::add);
        transport.transportOptionLists().forEach((key, values) -> {
            if (values.size() > 1) {
                sweep.add(key, values);
            }
        });
        return sweep;
    }

    /** Impl and load keys apply to every combination; an -O key only to the transport that declares it. */
    private static boolean applies(TransportRegistry registry, String impl, String key) {
        if (key.equals("impl") || !key.contains(".")) {
            return true;
        }
        return registry.get(impl).options().stream().map(TransportOption::key).anyMatch(key::equals);
    }

    private Planned plan(TransportRegistry registry, Combination c, List<Double> percentiles)
            throws ResolvedTransport.CouldNotRun {
        Map<String, String> given = new LinkedHashMap<>();
        transport.transportOptionLists().forEach((key, values) -> given.put(key, c.get(key) != null ? c.get(key)
                : values.get(0)));
        ResolvedTransport resolved = ResolvedTransport.resolve(spec, registry, c.get("impl"), given, allowInJvm);
        LoadSpec spec = this.load.toSpec(this.spec, transport, percentiles, c);
        ClientMemory.check(this.spec, spec);
        if (spec.measure() == Measure.SEND && resolved.transport().writtenEvent() == null) {
            throw usage("--measure send needs a written-to-kernel event, which transport " + resolved.transport().name()
                    + " does not have: use --measure rtt");
        }
        // A window left to its default is named by the value actually used.
        Combination named = LoadOptions.DEFAULT_WINDOW.equals(c.get("window"))
                ? c.with("window", Integer.toString(spec.window())) : c;
        return new Planned(named, resolved, spec);
    }

    private CombinationResult runOne(Planned p, int number, InetSocketAddress remote, String target,
            ClientOutputs outputs, AtomicReference<BenchmarkRun> current, List<Threshold> thresholds,
            OutputOptions.MaxErrors limit, PrintWriter err) throws RunFailure, IOException {
        LoadSpec planned = p.load();
        Transport t = p.transport().transport();
        int maxFrame = Math.max(16 * 1024 * 1024, Math.max(planned.size(), planned.responseSize()));
        ClientSettings settings = new ClientSettings(planned.protocol(), transport.socket(), this.load.connectTimeout,
                planned.measure() == Measure.SEND, maxFrame, p.transport().options());
        try (ClientTransport client = t.newClient(settings)) {
            LoadSpec spec = planned.effectiveFor(client);
            ClientOutputs.ForCombination o = outputs.forCombination(p.combination(), number, spec);
            o.header(target, t.name(), client.effectiveConfig(), t.writtenEvent());
            // Only the first combination waits: later ones follow on every host as the earlier ones end.
            RunListener listener = startAt != null && number == 1
                    ? new io.nbench.report.CompositeListener(List.of(o.listener(), new StartAt(firstIterationAt, stopRequested)))
                    : o.listener();
            if (stats != null) { // the server's line goes under the client's iteration line
                boolean text = output.format == OutputOptions.Format.TEXT && !output.quiet;
                listener = new io.nbench.report.CompositeListener(List.of(listener, stats.forCombination(
                        p.combination().name(), text ? this.spec.commandLine().getOut() : null)));
            }
            BenchmarkRun run = new BenchmarkRun(spec, listener);
            run.abortWhenErrorsExceed(limit.budget(spec), limit.describeBudget(output.maxErrors, spec));
            current.set(run);
            if (stopRequested.get()) {
                run.interrupt(); // SIGINT arrived between two combinations
            }
            RunResult result = run.execute(client, remote);
            List<Threshold.Outcome> judged = thresholds.stream().map(th -> th.judge(result)).toList();
            CombinationResult r = judge(p, result, judged, limit, client.effectiveConfig());
            o.summary(r, output.maxErrors);
            return r;
        }
    }

    /** Status, reasons and exit code of one combination (the first exit code that applies: ExitCode.first). */
    private CombinationResult judge(Planned p, RunResult result, List<Threshold.Outcome> judged,
                                    OutputOptions.MaxErrors limit, Map<String, String> effective) {
        List<String> reasons = new ArrayList<>();
        Status status;
        int code;
        if (result.interrupted()) {
            status = Status.INTERRUPTED;
            code = ExitCode.INTERRUPTED;
            reasons.add("interrupted");
        } else if (result.aborted()) {
            status = Status.ABORTED;
            code = ExitCode.COULD_NOT_RUN;
            reasons.add(result.abortReason());
        } else {
            status = Status.PASS;
            code = ExitCode.OK;
            long errors = result.errors().total();
            long messages = 0;
            for (var it : result.iterations()) {
                messages += it.messages();
            }
            if (limit.exceeded(errors, messages + errors)) {
                reasons.add(limit.failure(errors, messages + errors, output.maxErrors));
            }
            long missed = result.summary().rateMissedIterations();
            if (missed > 0) {
                reasons.add("target rate missed by more than 1% in " + missed + " iteration(s)");
            }
            long outstanding = result.errors().get(ErrorKind.TIMEOUT);
            if (result.spec().openLoop() && outstanding > 0) {
                reasons.add(outstanding + " responses outstanding past --timeout");
            }
            if (!reasons.isEmpty()) {
                status = Status.FAIL;
                code = ExitCode.FAILED;
            }
        }
        for (Threshold.Outcome o : judged) {
            if (!o.passed()) {
                reasons.add("threshold breached: " + o.describe());
                status = status.worse(Status.FAIL);
                code = ExitCode.first(code, ExitCode.THRESHOLD);
            }
        }
        return new CombinationResult(p.combination(), p.transport().transport().name(),
                p.transport().options().asText(), effective, result, judged, status, reasons, code);
    }

    private static SweepResult verdict(String target, List<String> keys, List<CombinationResult> done, String error) {
        Status status = Status.PASS;
        int code = ExitCode.OK;
        for (CombinationResult c : done) {
            status = status.worse(c.status());
            code = ExitCode.first(code, c.exitCode());
        }
        if (error != null) {
            status = status.worse(Status.ABORTED);
            code = ExitCode.first(code, ExitCode.COULD_NOT_RUN);
        }
        return new SweepResult(target, keys, done, error, status, code);
    }

    private String hint(RunFailure failure, String impl) {
        if (failure.getCause() instanceof TransportFailure f && f.kind() == TransportFailure.Kind.REFUSED) {
            return ": is a server running? start one with 'nbench server --impl " + impl + " --port "
                    + transport.port + "', or point --host/--port at one";
        }
        return "";
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
