package io.nbench.load;

import io.nbench.stats.IterationResult;
import io.nbench.stats.Summary;
import io.nbench.transport.ClientTransport;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * One client run against one server, closed loop (each response lets the next message go) or open loop
 * (messages sent on a schedule at {@code --rate}): connects, runs warmup and measured iterations with the
 * chosen driver, and collects per-iteration histograms and errors. The transport only moves bytes; every
 * timestamp and statistic is taken in the engine.
 *
 * <p>This class is the orchestration; each concern is its own class: {@link RunControl} (shared state and
 * the abort), {@link ConnectionSet} (opening, replacing and closing connections), {@link SenderGroup}
 * (sender and pacer threads and their barrier), {@link IterationClock} (boundaries and the harvest of the
 * per-thread {@link Recorders}), {@link Watchdog} (timeouts, the stall rule, the error budget).
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
        try {
            listener.onConnected(connections.size());
            watchdog.start();
            senders.start();
            Measurement m = new Measurement(run, connections, senders, iterations);
            if (run.spec.timeBased()) {
                m.runTimed(results);
            } else {
                m.runCounted(results);
            }
        } finally {
            shutdown(run, connections, senders, watchdog);
        }
        return new RunResult(run.spec, List.copyOf(results), new Summary(results, run.spec.percentiles()),
                run.errors.snapshot(), run.lateResponses.sum(), run.firstErrors(), run.abortReason(),
                run.abortCause(), run.reconnects.sum(), interrupted, iterations.runStartEpochMillis());
    }

    private static void shutdown(RunControl run, ConnectionSet connections, SenderGroup senders, Watchdog watchdog) {
        run.closing = true;
        run.stopSending = true;
        senders.finish();
        connections.close();
        senders.join();
        watchdog.stop();
    }

    /** The coordinator's part of one run: the iterations, one after the other, and the waits between. */
    private static final class Measurement {

        private final RunControl run;
        private final LoadSpec spec;
        private final NanoClock clock;
        private final boolean ioDriver;
        private final LoadConnection[] connections;
        private final SenderGroup senders;
        private final IterationClock iterations;

        Measurement(RunControl run, ConnectionSet connections, SenderGroup senders, IterationClock iterations) {
            this.run = run;
            this.spec = run.spec;
            this.clock = run.clock;
            this.ioDriver = run.ioDriver;
            this.connections = connections.all();
            this.senders = senders;
            this.iterations = iterations;
        }

        private int total() {
            return spec.warmup() + spec.iterations();
        }

        void runCounted(List<IterationResult> results) {
            for (int i = 0; i < total() && !run.aborted(); i++) {
                long start = iterations.beginIteration(i);
                if (ioDriver) {
                    kick(true);
                } else {
                    awaitPhase(); // senders start
                    awaitPhase(); // senders have sent their quota
                }
                drain();
                iterations.endIteration(results, start, run.aborted());
            }
        }

        void runTimed(List<IterationResult> results) {
            long boundary = iterations.beginIteration(0);
            long from = boundary;
            if (ioDriver) {
                kick(false);
            } else {
                awaitPhase();
            }
            for (int i = 0; i < total(); i++) {
                if (i > 0) {
                    // back to back: it starts where the last one was cut
                    iterations.beginIteration(i, from, iterations.lastCut());
                }
                boundary += spec.iterationNanos(); // nominal boundaries never drift
                long now;
                while ((now = clock.nanoTime()) < boundary && !run.aborted()) {
                    clock.park(this, Math.min(boundary, iterations.nextTick()) - now);
                    if (iterations.nextTick() < boundary) {
                        iterations.tick(); // a slice due at the boundary itself is closed by endIteration, not twice
                    }
                }
                // The iteration ends a little after the nominal boundary, when endIteration cuts it: its
                // wall time ends at the instant every count is read.
                boolean cut = run.aborted();
                from = iterations.endIteration(results, from, cut);
                if (cut) {
                    break;
                }
            }
            run.stopSending = true;
            if (ioDriver) {
                for (LoadConnection c : connections) {
                    c.remaining.set(0);
                }
            } else {
                awaitPhase();
            }
            drain();
        }

        /** Arrives at the senders' barrier and waits for them, closing one-second slices meanwhile. */
        private void awaitPhase() {
            int phase = senders.arrive();
            for (;;) {
                long wait = Math.max(1, iterations.nextTick() - clock.nanoTime());
                try {
                    senders.awaitAdvance(phase, wait);
                    return;
                } catch (TimeoutException e) {
                    iterations.tick();
                } catch (InterruptedException e) {
                    run.abort(AbortCause.INTERRUPTED, "interrupted");
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }

        /** Io driver: gives each connection its quota and fills its window; I/O threads send the rest. */
        private void kick(boolean counted) {
            int conns = connections.length;
            long total = spec.messagesPerIteration();
            for (int c = 0; c < conns; c++) {
                LoadConnection lc = connections[c];
                if (lc.dead) {
                    continue;
                }
                long quota = counted ? total / conns + (c < total % conns ? 1 : 0) : Long.MAX_VALUE;
                int initial = (int) Math.min(quota, lc.window);
                lc.remaining.set(quota - initial);
                int taken = 0;
                while (taken < initial && lc.tryAcquire()) {
                    taken++;
                }
                for (int k = 0; k < taken; k++) {
                    lc.sendOne();
                }
            }
        }

        /**
         * Waits until every connection has all its permits back. The deadline runs from the moment a
         * connection has nothing left to send (with the io driver the I/O threads may still be sending its
         * quota); the watchdog fails whatever outlives the timeout, so this ends. After SIGINT or an abort it
         * does not wait for outstanding messages: the run is over, and a peer that broke the protocol or
         * stalled would only hold the report back.
         */
        private void drain() {
            long grace = spec.timeoutNanos() + TimeUnit.SECONDS.toNanos(2);
            long deadline = System.nanoTime() + grace;
            Thread me = Thread.currentThread();
            for (LoadConnection c : connections) {
                c.drainWaiter = me;
                try {
                    while (!c.drained() && !run.aborted()) {
                        long now = System.nanoTime(); // the grace is a safety net in real time
                        if (c.remaining.get() > 0 && !c.dead) {
                            deadline = now + grace; // still sending its quota: the clock has not started
                        }
                        if (now > deadline) {
                            run.abort(AbortCause.OUTSTANDING, "responses still outstanding "
                                    + TimeUnit.NANOSECONDS.toMillis(grace) + " ms after the last send");
                            return;
                        }
                        LockSupport.parkNanos(Math.max(1,
                                Math.min(10_000_000L, iterations.nextTick() - clock.nanoTime())));
                        iterations.tick();
                    }
                } finally {
                    c.drainWaiter = null;
                }
            }
        }
    }
}
