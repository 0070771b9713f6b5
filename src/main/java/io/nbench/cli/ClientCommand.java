package io.nbench.cli;

import io.nbench.client.ClientPlan;
import io.nbench.client.ClientPlanBuilder;
import io.nbench.client.ClientRun;
import io.nbench.client.ClientSpec;
import io.nbench.client.CouldNotRun;
import io.nbench.client.ExitCode;
import io.nbench.client.InvalidClientPlan;
import io.nbench.client.ServerStats;
import io.nbench.client.Verdict;
import io.nbench.client.capacity.CapacitySearch;
import io.nbench.client.capacity.CapacitySettings;
import io.nbench.client.monitor.MonitorClient;
import io.nbench.client.output.CannotWrite;
import io.nbench.client.output.OutputContext;
import io.nbench.client.output.Outputs;
import io.nbench.client.output.RunRecord;
import io.nbench.report.SweepResult;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "client", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Connects to a server and runs the benchmark: warmup and measured iterations in a closed "
                + "loop (each response lets the next message go) or, with --rate, an open loop (messages sent on a "
                + "schedule), one line per iteration, then a summary with 99.9%% confidence intervals. Comma lists in "
                + "--impl, --size, --threads, --window, --rate and -O key=v1,v2 run every combination.",
        footer = {"", "Examples:",
            "  # 4 threads, 1 KiB, netty, 127.0.0.1:7007",
            "  nbench client",
            "  nbench client --url http://127.0.0.1:8080/ -c 50 -d 10s   # like wrk",
            "  nbench client --iteration-time 2s --iterations 5 --window 16",
            "  nbench client --measure send --response-size 0 --threads 50 --window 10",
            "  nbench client --protocol echo --port 7 --host some-echo-server",
            "  # TLS against 'nbench server --tls' (its certificate is self-signed)",
            "  nbench client --tls --tls-insecure",
            "  # 2 threads share each connection",
            "  nbench client --connections 4 --threads 8",
            "  nbench client --size 1k,5k,10k --out results.json --hdr-log lat.hlog",
            "  nbench client --format json | jq '.summary.throughput.mean'",
            "  nbench client --format csv --no-header >> all-runs.csv",
            "  nbench client --threshold 'p99<2ms' --threshold 'errors==0' || echo slower",
            "  # capacity: the highest open-loop rate whose p99 stays within 10 ms",
            "  nbench client --find-rate --slo 'p99<=10ms' --slo 'errors<=0.1%%'",
            "  # latency against load: 9 open-loop steps from 100 to 500 msg/s, and the knee",
            "  nbench client --rate-sweep 100..500/9",
            "", "Exit codes (the first that applies wins): 2 usage error, 1 could not run, aborted or results not "
                + "written, 130 interrupted (the partial result is printed and written), 5 nothing measured (NO_DATA: "
                + "no message completed in the measured iterations), 4 errors over --max-errors, 8 --find-rate: the answer "
                + "no longer passed at the end (unstable), 3 a --threshold breached (with --find-rate: no rate met the "
                + "--slo), 7 --find-rate: limited by the client, not the server, 0 ok (with --find-rate: some rate met it)."})
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

    /** The server {@code nbench run} started for this client (no option: run's typed word); null otherwise. */
    ClientSpec.Server server;

    /** Set by {@code nbench run}: hears each result and document (joined into one per server); null otherwise. */
    ChildClientListener listener;

    /** Set by {@code --forks} in each fork: a file holding its settings ({@link ClientPlanFile}). */
    @Option(names = "--plan", paramLabel = "FILE", hidden = true)
    Path planFile;

    @Mixin
    TransportOptions transport;

    @Mixin
    LoadOptions load;

    @Mixin
    HttpTargetOptions http;

    @Mixin
    ClientTlsOptions tls;

    @Mixin
    OutputOptions output;

    @Mixin
    ServerStatsOptions serverStats;

    @Mixin
    CapacityOptions capacity;

    @Mixin
    RateSweepOptions sweep;

    /** With --server-stats: the connection to the server's monitor. */
    private ServerStats stats;

    @Option(names = "--start-at", paramLabel = "TIME", converter = Converters.When.class,
            description = "Time-based iterations: connect and warm up early, so that the first measured iteration "
                    + "starts at this instant (ISO-8601 with offset, e.g. 2026-11-23T10:00:00Z, or +30s from now): "
                    + "client hosts given the same instant measure the same windows, for nbench report --merge. "
                    + "Their clocks must agree (NTP). Default: at once.")
    Instant startAt;

    @Override
    public Integer call() {
        if (planFile != null && !ChildClient.applyFile(this, spec.commandLine().getErr())) {
            return ExitCode.COULD_NOT_RUN;
        }
        return measure();
    }

    /**
     * Checks the options, builds the plan from them and runs it: what {@code nbench client} does once its options
     * are set, parsed or set by {@code nbench run} from a child's settings ({@link ChildClient}). A usage error is a
     * {@link ParameterException}.
     */
    int measure() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (this.load.forks < 1) {
            throw usage("--forks must be at least 1");
        }
        transport.checkIoThreads(spec, "--io-threads");
        RunLength.resolve(spec, this.load);
        if (startAt != null && this.load.forks > 1) {
            throw usage("--start-at aligns one run's first iteration across hosts; --forks runs several one after "
                    + "another: use one of them");
        }
        capacity.check(spec, this.load, output.thresholds);
        sweep.check(spec, this.load, capacity.findRate);
        ClientPlanBuilder planned = planBuilder();
        try {
            planned.checkTarget();
        } catch (InvalidClientPlan e) {
            throw usage(e.getMessage());
        }
        if (output.hostLabel != null && output.hostLabel.isBlank()) {
            throw usage("--host-label is empty: give the name this host goes by, e.g. --host-label client-1");
        }
        if (this.load.forks > 1) {
            // Each fork runs this client once, with its own result document.
            return new ForkRunner(spec, ChildClient.settingsOf(this, output.arguments(spec)).withForks(1),
                    this.load.forks, !runOwnsFiles, listener).run(out, err);
        }
        ClientPlan plan;
        CapacitySettings search = capacity.findRate
                ? capacity.settings(spec, this.load, output.maxErrors(spec)) : null;
        try {
            Verdict verdict = new Verdict(output.maxErrors(spec), output.thresholds(spec));
            plan = planned.percentiles(output.percentiles(spec)).verdict(search != null ? search.verdict()
                    : sweep.rateSweep != null ? verdict.rateJudgedElsewhere() : verdict).build();
        } catch (InvalidClientPlan e) {
            throw usage(e.getMessage());
        } catch (CouldNotRun e) {
            err.println("nbench client: " + e.getMessage());
            return ExitCode.COULD_NOT_RUN;
        }
        try {
            stats = serverStats.open(spec, this.load.host, Duration.ofSeconds(10), err);
        } catch (MonitorClient.Failure e) {
            err.println("nbench client: " + e.getMessage());
            return ExitCode.COULD_NOT_RUN;
        }
        if (search != null && plan.steps().size() > 1) {
            throw usage("--find-rate searches the capacity of one combination: give one value to --impl, --size, "
                    + "--threads, --window and each -O");
        }
        sweep.checkPlan(spec, plan);
        RunRecord record = ServerStatsOptions.record(new RunRecord(output.hostLabel, output.arguments(spec),
                OptionRecord.values(spec), ClientSpec.Server.measured(server, stats, plan)), stats);
        Outputs outputs;
        try {
            outputs = Outputs.open(search != null
                    ? new OutputContext(output.settings(), out, err, CapacitySearch.keys(plan.keys()),
                            OutputContext.SEARCH, record)
                    : new OutputContext(output.settings(), out, err, plan.keys(), plan.steps().size(), record)
                            .plannedAfter(listener != null ? listener.plannedAfterNanos() : 0)
                            .rateSweep(sweep.rateSweep != null));
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        } catch (CannotWrite e) {
            err.println("nbench client: " + e.getMessage());
            closeStats();
            return ExitCode.COULD_NOT_RUN;
        }
        ClientRun run = new ClientRun(plan, outputs, err);
        if (stats != null) { // the server's line goes under the client's iteration line, in text
            boolean text = output.settings().iterationLinesOnStdout();
            run.alsoListening(c -> stats.forCombination(c.name(), text ? out : null));
        }
        // SIGINT/SIGTERM: cut the current run short; this thread then prints and writes what was measured.
        Interruption interruption = Interruption.install("nbench-client-interrupt", Duration.ofSeconds(10),
                run::interrupt, out::flush);
        try {
            SweepResult result = search != null ? run.run(new CapacitySearch(planned, search,
                    output.settings().textOnStdout() ? out : err)) : sweep.run(run, plan);
            if (listener != null) {
                listener.ran(result, record.document().doc(result));
            }
            return result.exitCode();
        } finally {
            out.flush();
            closeStats();
            interruption.close();
        }
    }

    /**
     * The options onto a plan builder: what the client runs, typed. The percentiles and the verdict, which
     * {@code --forks} leaves to each fork, are added by {@link #call}.
     */
    private ClientPlanBuilder planBuilder() {
        ClientPlanBuilder plan = ClientPlan.builder()
                .impls(transport.impls())
                .transportOptions(transport.transportOptionLists())
                .socket(transport.socket())
                .allowInJvm(allowInJvm)
                .startAt(startAt);
        HttpTargetOptions.Target target = http.resolve(spec, transport.protocol, load.host, transport.port);
        plan.tls(tls.choice(spec, http.url, target.tls()), tls.ca, tls.insecure).tlsResumption(tls.resumption());
        load.mapOnto(plan, target.protocol(), target.request());
        plan.host(target.host()).port(target.port());
        if (capacity.findRate || sweep.rateSweep != null) { // steps of 1 s unless given
            plan.iterationTime(capacity.iterationTime(load)).rates(sweep.rates());
        }
        return plan;
    }

    private void closeStats() {
        if (stats != null) {
            stats.close();
        }
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
