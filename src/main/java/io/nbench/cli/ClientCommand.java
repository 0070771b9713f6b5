package io.nbench.cli;

import io.nbench.load.BenchmarkRun;
import io.nbench.load.Driver;
import io.nbench.load.LoadSpec;
import io.nbench.load.Measure;
import io.nbench.load.RunFailure;
import io.nbench.load.RunResult;
import io.nbench.load.Verify;
import io.nbench.protocol.Protocol;
import io.nbench.report.TextReport;
import io.nbench.stats.Percentiles;
import io.nbench.transport.ClientSettings;
import io.nbench.transport.ClientTransport;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "client", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Connects to a server and runs the benchmark: warmup and measured iterations in a closed "
                + "loop, one line per iteration, then a summary with 99.9%% confidence intervals.",
        footer = {"", "Examples:",
            "  nbench client                                          # 4 threads, 1 KiB, netty, 127.0.0.1:7007",
            "  nbench client --threads 50 --msgs 50000 --size 5k",
            "  nbench client --iteration-time 2s --iterations 5 --window 16",
            "  nbench client --measure send --response-size 0 --threads 50 --window 10",
            "  nbench client --protocol echo --port 7 --host some-echo-server",
            "  nbench client --connections 4 --threads 8             # 2 threads share each connection",
            "", "Exit codes: 0 ok, 1 could not run or aborted, 2 usage error, 4 errors over --max-errors, "
                + "130 interrupted (the partial result is printed)."})
final class ClientCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    TransportOptions transport;

    @Option(names = "--host", paramLabel = "HOST", defaultValue = "127.0.0.1", description = "Server host (default: ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "4", description = "Sender threads (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--connections", paramLabel = "N",
            description = "Connections (default: = --threads). Fewer: threads share them; more: each thread owns several.")
    Integer connections;

    @Option(names = "--msgs", paramLabel = "N",
            description = "Messages per thread per iteration (default: 10000). Excludes --iteration-time.")
    Long msgs;

    @Option(names = "--iteration-time", paramLabel = "D", converter = Converters.Time.class,
            description = "Time-based iterations instead of --msgs: back-to-back slices of one continuous run.")
    Duration iterationTime;

    @Option(names = "--warmup", paramLabel = "N", defaultValue = "3", description = "Warmup iterations (default: ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--iterations", paramLabel = "N", defaultValue = "10", description = "Measured iterations (default: ${DEFAULT-VALUE}).")
    int iterations;

    @Option(names = "--size", paramLabel = "SIZE", defaultValue = "1k", converter = Converters.Size.class,
            description = "Request payload size, e.g. 512, 5k, 1m (default: ${DEFAULT-VALUE}).")
    int size;

    @Option(names = "--response-size", paramLabel = "SIZE", converter = Converters.Size.class,
            description = "Response payload size (default: = --size; 0 with --measure send); 0 = one-way.")
    Integer responseSize;

    @Option(names = "--window", paramLabel = "N", defaultValue = "1",
            description = "Messages in flight per connection: the semaphore's permits (default: ${DEFAULT-VALUE}).")
    int window;

    @Option(names = "--measure", paramLabel = "rtt|send", defaultValue = "rtt",
            description = "rtt: until the response is complete; send: until the request is written to the kernel. Default: ${DEFAULT-VALUE}.")
    Measure measure;

    @Option(names = "--driver", paramLabel = "threads|io", defaultValue = "io",
            description = "Who sends the next message when a permit returns: the sender threads (the seeds' model) "
                    + "or the I/O thread that released it (no thread hand-off). Default: ${DEFAULT-VALUE}.")
    Driver driver;

    @Option(names = "--timeout", paramLabel = "D", defaultValue = "10s", converter = Converters.Time.class,
            description = "A message not completed within this is a timeout error (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    @Option(names = "--connect-timeout", paramLabel = "D", defaultValue = "5s", converter = Converters.Time.class,
            description = "Bound on each connect; a refused first connection is retried until then, so a client "
                    + "started together with its server waits for it (default: ${DEFAULT-VALUE}).")
    Duration connectTimeout;

    @Option(names = "--verify", paramLabel = "none|sample|full", defaultValue = "sample",
            description = "Response payload checks: sample = length and id of each, every byte of 1 in 64 (default: ${DEFAULT-VALUE}).")
    Verify verify;

    @Option(names = "--percentiles", paramLabel = "LIST", defaultValue = "25,50,75,90,95,99,99.9,100",
            description = "Percentiles to report (default: ${DEFAULT-VALUE}).")
    String percentiles;

    @Option(names = "--max-errors", paramLabel = "N|P%", defaultValue = "0",
            description = "Errors tolerated before the run FAILs (exit 4), as a count or a percentage of messages (default: ${DEFAULT-VALUE}).")
    String maxErrors;

    @Option(names = "--quiet", description = "Print only the header and the summary, not each iteration.")
    boolean quiet;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        LoadSpec load = loadSpec();
        MaxErrors limit = MaxErrors.parse(spec, maxErrors);
        ResolvedTransport resolved;
        try {
            resolved = ResolvedTransport.resolve(spec, transport);
        } catch (ResolvedTransport.CouldNotRun e) {
            err.println("nbench client: " + e.getMessage());
            return ExitCode.COULD_NOT_RUN;
        }
        if (load.measure() == Measure.SEND && resolved.transport().writtenEvent() == null) {
            throw usage("--measure send needs a written-to-kernel event, which transport " + resolved.transport().name()
                    + " does not have: use --measure rtt");
        }
        InetSocketAddress remote;
        try {
            remote = new InetSocketAddress(InetAddress.getByName(host), transport.port);
        } catch (UnknownHostException e) {
            err.println("nbench client: unknown host '" + host + "': check --host");
            return ExitCode.COULD_NOT_RUN;
        }
        int maxFrame = Math.max(16 * 1024 * 1024, Math.max(load.size(), load.responseSize()));
        ClientSettings settings = new ClientSettings(load.protocol(), transport.socket(), connectTimeout,
                load.measure() == Measure.SEND, maxFrame, resolved.options());

        TextReport report = new TextReport(out, load, quiet);
        BenchmarkRun run = new BenchmarkRun(load, report);
        CountDownLatch printed = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            run.interrupt();
            try {
                printed.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            out.flush();
            Runtime.getRuntime().halt(ExitCode.INTERRUPTED);
        }, "nbench-client-interrupt");
        Runtime.getRuntime().addShutdownHook(hook);
        try (ClientTransport client = resolved.transport().newClient(settings)) {
            report.header(host + ":" + transport.port, resolved.transport().name(), client.effectiveConfig(),
                    resolved.transport().writtenEvent());
            RunResult result;
            try {
                result = run.execute(client, remote);
            } catch (RunFailure e) {
                err.println("nbench client: " + e.getMessage() + hint(e.getMessage()));
                return ExitCode.COULD_NOT_RUN;
            }
            report.summary(result);
            return verdict(result, limit, out, err);
        } catch (IOException | RuntimeException e) {
            err.println("nbench client: " + e.getMessage());
            return ExitCode.COULD_NOT_RUN;
        } finally {
            out.flush();
            printed.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // SIGINT arrived: the hook prints nothing more and exits with 130.
            }
        }
    }

    private String hint(String message) {
        if (message != null && message.contains("refused")) {
            return ": is a server running? start one with 'nbench server --impl " + transport.impl + " --port "
                    + transport.port + "', or point --host/--port at one";
        }
        return "";
    }

    private int verdict(RunResult result, MaxErrors limit, PrintWriter out, PrintWriter err) {
        if (result.interrupted()) {
            out.println("Result: INTERRUPTED (partial results above)");
            return ExitCode.INTERRUPTED;
        }
        if (result.aborted()) {
            out.println("Result: ABORTED: " + result.abortReason());
            err.println("nbench client: run aborted: " + result.abortReason());
            return ExitCode.COULD_NOT_RUN;
        }
        long errors = result.errors().total();
        long messages = 0;
        for (var it : result.iterations()) {
            messages += it.messages();
        }
        if (limit.exceeded(errors, messages + errors)) {
            out.println("Result: FAIL: " + errors + " errors > --max-errors " + maxErrors);
            return ExitCode.FAILED;
        }
        out.println("Result: PASS");
        return ExitCode.OK;
    }

    private LoadSpec loadSpec() {
        if (threads < 1) {
            throw usage("--threads must be at least 1");
        }
        int conns = connections == null ? threads : connections;
        if (conns < 1) {
            throw usage("--connections must be at least 1");
        }
        if (msgs != null && iterationTime != null) {
            throw usage("--msgs and --iteration-time exclude each other: choose count-based or time-based iterations");
        }
        long perThread = msgs == null ? 10_000 : msgs;
        if (iterationTime == null && perThread < 1) {
            throw usage("--msgs must be at least 1");
        }
        if (iterationTime != null && iterationTime.toNanos() < 1_000_000) {
            throw usage("--iteration-time must be at least 1ms");
        }
        if (warmup < 0 || iterations < 1) {
            throw usage("--iterations must be at least 1 and --warmup at least 0");
        }
        if (window < 1) {
            throw usage("--window must be at least 1");
        }
        if (transport.port < 1 || transport.port > 65535) {
            throw usage("--port " + transport.port + " is not a TCP port: use 1 to 65535");
        }
        Protocol protocol = transport.protocol;
        int response = responseSize != null ? responseSize : (measure == Measure.SEND ? 0 : size);
        if (protocol == Protocol.ECHO) {
            if (size < 1) {
                throw usage("--protocol echo needs --size of at least 1 byte");
            }
            if (responseSize != null && responseSize != size) {
                throw usage("--protocol echo answers with exactly what was sent: --response-size cannot differ from --size");
            }
            response = size;
        }
        if (measure == Measure.RTT && protocol == Protocol.FRAMED && response == 0) {
            throw usage("--response-size 0 (one-way) gives no response to time: use --measure send");
        }
        if (timeout.toNanos() <= 0 || connectTimeout.toNanos() <= 0) {
            throw usage("--timeout and --connect-timeout must be positive");
        }
        List<Double> ps;
        try {
            ps = Percentiles.parse(percentiles);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        return new LoadSpec(threads, conns, iterationTime == null ? perThread : 0,
                iterationTime == null ? 0 : iterationTime.toNanos(), warmup, iterations, size, response, window,
                measure, driver, timeout.toNanos(), connectTimeout.toNanos(), verify, protocol, ps);
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    /** {@code --max-errors}: a count, or a percentage of messages. */
    record MaxErrors(long count, double percent) {

        static MaxErrors parse(CommandSpec spec, String text) {
            try {
                if (text.endsWith("%")) {
                    double p = Double.parseDouble(text.substring(0, text.length() - 1));
                    if (p < 0 || p > 100) {
                        throw new NumberFormatException();
                    }
                    return new MaxErrors(-1, p);
                }
                long n = Long.parseLong(text);
                if (n < 0) {
                    throw new NumberFormatException();
                }
                return new MaxErrors(n, -1);
            } catch (NumberFormatException e) {
                throw new ParameterException(spec.commandLine(),
                        "--max-errors '" + text + "' is neither a count nor a percentage: use e.g. 0, 10 or 0.1%");
            }
        }

        boolean exceeded(long errors, long attempts) {
            if (count >= 0) {
                return errors > count;
            }
            return attempts > 0 && errors * 100.0 / attempts > percent;
        }
    }
}
