package io.nbench.load;

import io.nbench.stats.DrainResult;
import io.nbench.stats.IterationResult;
import io.nbench.stats.Summary;
import io.nbench.transport.ClientTransport;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * One client run against one server, closed loop (each response lets the next message go) or open loop
 * (messages sent on a schedule at {@code --rate}): connects, runs warmup and measured iterations with the
 * chosen driver, and collects per-iteration histograms and errors. The transport only moves bytes; every
 * timestamp and statistic is taken in the engine.
 *
 * <p>This class is the orchestration; each concern is its own class: {@link Coordinator} (the iterations
 * on the calling thread), {@link RunControl} (shared state and the abort), {@link ConnectionSet}
 * (opening, replacing and closing connections), {@link SenderGroup} (sender and pacer threads and their
 * barrier), {@link IterationClock} (boundaries and the harvest of the per-thread {@link Recorders}),
 * {@link Watchdog} (timeouts, the stall rule, the error budget).
 *
 * <p>Threads: the caller's thread coordinates (starts iterations, waits for drains, flips the per-thread
 * recorders at iteration boundaries); sender threads (threads driver) or the transport's I/O threads (io
 * driver) send; the transport's I/O threads record; one watchdog thread expires messages past the
 * timeout.
 */
public final class BenchmarkRun {

    private final LoadSpec spec;
    private final RunListener listener;
    /** Every timestamp and every wait for a moment in time; tests move it by hand. */
    private final NanoClock clock;
    /** Errors that say the server is not answering, beyond which the run stops; -1 = no limit. */
    private volatile long errorBudget = -1;
    private volatile String errorBudgetLabel;
    private volatile boolean interrupted;
    /** The run under way, once {@link #execute} has made it: {@link #interrupt} stops it. */
    private volatile RunControl control;

    public BenchmarkRun(LoadSpec spec, RunListener listener) {
        this(spec, listener, NanoClock.SYSTEM);
    }

    BenchmarkRun(LoadSpec spec, RunListener listener, NanoClock clock) {
        this.spec = spec;
        this.listener = listener;
        this.clock = clock;
    }

    /**
     * Stops the run as soon as more than {@code limit} errors say the server is not answering (timeout,
     * read, write, connect): past that the verdict cannot change, and a stalled server would otherwise
     * keep the run going as each timeout frees a slot for the next message. Rejections and integrity
     * errors are answers and leave the run going. {@code label} is the limit as the user gave it.
     */
    public void abortWhenErrorsExceed(long limit, String label) {
        this.errorBudget = limit;
        this.errorBudgetLabel = label;
    }

    /** Stops the run from another thread (SIGINT): the current iteration is cut and reported. */
    public void interrupt() {
        interrupted = true;
        RunControl c = control;
        if (c != null) {
            c.abort(AbortCause.INTERRUPTED, "interrupted");
        }
    }

    /** The recorders of the run under way or last run (for tests: what the recording threads counted). */
    Recorders recorders() {
        return control.recorders;
    }

    /**
     * Runs the whole benchmark. Returns the result even when the run was aborted or interrupted midway
     * (whatever was measured is in it); throws {@link RunFailure} only if it could not start.
     */
    public RunResult execute(ClientTransport transport, InetSocketAddress remote) throws RunFailure {
        RunControl run = new RunControl(spec.effectiveFor(transport), clock, Thread.currentThread());
        control = run;
        if (interrupted) { // an interrupt that came before the control existed
            run.abort(AbortCause.INTERRUPTED, "interrupted");
        }
        ConnectionSet connections = new ConnectionSet(run, transport, remote);
        try {
            connections.open();
        } catch (RunFailure | RuntimeException e) {
            run.closing = true;
            run.stopSending = true;
            connections.close();
            throw e;
        }
        List<IterationResult> results = new ArrayList<>();
        SenderGroup senders = new SenderGroup(run, connections);
        IterationClock iterations = new IterationClock(run, senders, listener);
        Watchdog watchdog = new Watchdog(run, connections, listener, errorBudget, errorBudgetLabel);
        DrainResult drain = null;
        try {
            listener.onConnected(connections.size());
            watchdog.start();
            senders.start();
            Coordinator coordinator = new Coordinator(run, connections, senders, iterations);
            if (run.spec.timeBased()) {
                drain = coordinator.runTimed(results);
            } else {
                coordinator.runCounted(results);
            }
        } finally {
            shutdown(run, connections, senders, watchdog);
        }
        return new RunResult(run.spec, List.copyOf(results), new Summary(results, run.spec.percentiles(), run.spec.iterationNanos()),
                run.errors.snapshot(), run.lateResponses.sum(), run.firstErrors(), run.abortReason(),
                run.abortCause(), run.reconnects.sum(), interrupted, iterations.runStartEpochMillis(), drain,
                run.statuses.snapshot());
    }

    private static void shutdown(RunControl run, ConnectionSet connections, SenderGroup senders, Watchdog watchdog) {
        run.closing = true;
        run.stopSending = true;
        senders.finish();
        connections.close();
        senders.join();
        watchdog.stop();
    }
}
