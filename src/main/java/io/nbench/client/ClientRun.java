package io.nbench.client;

import io.nbench.client.output.CombinationStart;
import io.nbench.client.output.Outputs;
import io.nbench.load.BenchmarkRun;
import io.nbench.load.CompositeListener;
import io.nbench.load.LoadSpec;
import io.nbench.load.Measure;
import io.nbench.load.RunFailure;
import io.nbench.load.RunListener;
import io.nbench.load.RunResult;
import io.nbench.report.CombinationResult;
import io.nbench.report.Status;
import io.nbench.report.SweepResult;
import io.nbench.sweep.Combination;
import io.nbench.transport.ClientSettings;
import io.nbench.transport.ClientTransport;
import io.nbench.transport.IoThreads;
import io.nbench.transport.SocketSettings;
import io.nbench.transport.Transport;
import io.nbench.transport.TransportFailure;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * A client run as a library call: a {@link ClientPlan} and its {@link Outputs} in, a {@link SweepResult} out,
 * whose status and exit code are the {@link Verdict}'s. Each combination runs on its own client transport, one
 * after another; the first that cannot go on (the server is gone, the user wants out) ends the sweep, and what
 * was measured until then is still reported and written.
 */
public final class ClientRun {

    private final ClientPlan plan;
    private final Outputs outputs;
    private final PrintWriter err;
    /** Set by {@link #interrupt}: no further combination starts. */
    private final AtomicBoolean stopRequested = new AtomicBoolean();
    private final AtomicReference<BenchmarkRun> current = new AtomicReference<>();
    /** Heard after the outputs, combination by combination (e.g. the server's figures under each iteration). */
    private Function<Combination, RunListener> alsoListening = c -> RunListener.NONE;

    /** {@code err}: where a combination that could not run is named, one line each. */
    public ClientRun(ClientPlan plan, Outputs outputs, PrintWriter err) {
        this.plan = plan;
        this.outputs = outputs;
        this.err = err;
    }

    /**
     * Adds a listener to each combination, called after the outputs' (so a line it prints follows the
     * iteration's line), e.g. the server's own figures read from its monitor.
     */
    public ClientRun alsoListening(Function<Combination, RunListener> perCombination) {
        this.alsoListening = perCombination;
        return this;
    }

    /**
     * Cuts the run short (from any thread, e.g. a SIGINT hook): the current combination ends at once with what
     * it measured, no further one starts, and {@link #run} returns an INTERRUPTED result.
     */
    public void interrupt() {
        stopRequested.set(true);
        BenchmarkRun run = current.get();
        if (run != null) {
            run.interrupt();
        }
    }

    /** Runs every combination, reports and writes the results; the outputs are closed when it returns. */
    public SweepResult run() {
        return run(new PlannedSteps(plan));
    }

    /**
     * Runs the steps a source gives, each decided after the last was judged (a capacity search's next rate), then
     * reports and writes the results as the source concludes them; the outputs are closed when it returns.
     */
    public SweepResult run(StepSource source) {
        try {
            List<CombinationResult> done = new ArrayList<>();
            String error = null;
            boolean more = true;
            int number = 0;
            while (!stopRequested.get()) {
                ClientPlan.Step step;
                try {
                    step = source.next(List.copyOf(done));
                } catch (CouldNotRun e) {
                    error = e.getMessage();
                    err.println("nbench client: " + error);
                    break;
                }
                if (step == null) {
                    more = false;
                    break;
                }
                number++;
                try {
                    done.add(runOne(step, number, source.verdict(step, plan.verdict())));
                } catch (RunFailure e) {
                    error = e.getMessage() + hint(e, step.transport().transport().name());
                    err.println("nbench client: " + error);
                    break;
                } catch (IOException | RuntimeException e) {
                    error = String.valueOf(e.getMessage());
                    err.println("nbench client: " + error);
                    break;
                }
            }
            boolean cut = stopRequested.get() && more;
            return outputs.finish(source.conclude(Verdict.sweep(plan.target(), plan.keys(), done, error, cut)));
        } finally {
            outputs.close();
        }
    }

    private CombinationResult runOne(ClientPlan.Step step, int number, Verdict verdict) throws RunFailure, IOException {
        LoadSpec planned = step.load();
        Transport t = step.transport().transport();
        int maxFrame = Math.max(16 * 1024 * 1024, Math.max(planned.size(), planned.responseSize()));
        // --io-threads not given: half the cores against a server on this machine, never more than the
        // connections; decided per combination, since a --threads sweep changes the connections.
        SocketSettings socket = plan.socket().withIoThreads(IoThreads.client(plan.socket().ioThreads(),
                plan.remote().getAddress(), planned.connections()));
        ClientSettings settings = new ClientSettings(planned.protocol(), socket, plan.connectTimeout(),
                planned.measure() == Measure.SEND, maxFrame, step.transport().options(), plan.tls());
        try (ClientTransport client = t.newClient(settings)) {
            LoadSpec spec = planned.effectiveFor(client);
            RunListener listener = outputs.start(new CombinationStart(step.combination(), number, spec, plan.target(),
                    t.name(), client.effectiveConfig(), t.writtenEvent(), client.httpParser(), client::tlsSession));
            RunListener also = alsoListening.apply(step.combination());
            if (also != RunListener.NONE) {
                listener = new CompositeListener(List.of(listener, also));
            }
            // Only the first combination waits: later ones follow on every host as the earlier ones end.
            if (plan.firstIterationAt() != null && number == 1) {
                listener = new CompositeListener(List.of(listener, new StartAt(plan.firstIterationAt(), stopRequested)));
            }
            BenchmarkRun run = new BenchmarkRun(spec, listener);
            MaxErrors limit = verdict.limit();
            run.abortWhenErrorsExceed(limit.budget(spec), limit.describeBudget(spec));
            current.set(run);
            if (stopRequested.get()) {
                run.interrupt(); // interrupted between two combinations
            }
            RunResult result = run.execute(client, plan.remote());
            CombinationResult r = verdict.judge(step, result, client.effectiveConfig(), client.tlsSession());
            outputs.summary(r);
            return r;
        }
    }

    /** What to do about a refused connection: start a server there, or point the client elsewhere. */
    private String hint(RunFailure failure, String impl) {
        if (failure.getCause() instanceof TransportFailure f && f.kind() == TransportFailure.Kind.REFUSED) {
            return ": is a server running? start one with 'nbench server --impl " + impl + " --port "
                    + plan.remote().getPort() + "', point --host/--port at one, or wait for one with --connect-retry 10s";
        }
        return "";
    }
}
