package io.nbench.cli;

import io.nbench.load.BenchmarkRun;
import io.nbench.load.LoadSpec;
import io.nbench.load.Measure;
import io.nbench.load.RunFailure;
import io.nbench.load.RunResult;
import io.nbench.report.TextReport;
import io.nbench.transport.ClientSettings;
import io.nbench.transport.ClientTransport;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
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

    @Mixin
    LoadOptions load;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        LoadSpec load = this.load.toSpec(spec, transport, output.percentiles(spec));
        OutputOptions.MaxErrors limit = output.maxErrors(spec);
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
            remote = new InetSocketAddress(InetAddress.getByName(this.load.host), transport.port);
        } catch (UnknownHostException e) {
            err.println("nbench client: unknown host '" + this.load.host + "': check --host");
            return ExitCode.COULD_NOT_RUN;
        }
        int maxFrame = Math.max(16 * 1024 * 1024, Math.max(load.size(), load.responseSize()));
        ClientSettings settings = new ClientSettings(load.protocol(), transport.socket(), this.load.connectTimeout,
                load.measure() == Measure.SEND, maxFrame, resolved.options());

        TextReport report = new TextReport(out, load, output.quiet);
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
            report.header(this.load.host + ":" + transport.port, resolved.transport().name(), client.effectiveConfig(),
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

    private int verdict(RunResult result, OutputOptions.MaxErrors limit, PrintWriter out, PrintWriter err) {
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
            out.println("Result: FAIL: " + errors + " errors > --max-errors " + output.maxErrors);
            return ExitCode.FAILED;
        }
        out.println("Result: PASS");
        return ExitCode.OK;
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

}
