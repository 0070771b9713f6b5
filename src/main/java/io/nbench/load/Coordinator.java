package io.nbench.load;

import io.nbench.stats.DrainResult;
import io.nbench.stats.IterationResult;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * The coordinator's part of one run, on the thread that called {@link BenchmarkRun#execute}: the
 * iterations one after the other, counted or timed, the start of each (the io driver's first messages,
 * or the senders' barrier) and the waits for its end, closing one-second slices meanwhile.
 */
final class Coordinator {

    private final RunControl run;
    private final LoadSpec spec;
    private final NanoClock clock;
    private final boolean ioDriver;
    private final LoadConnection[] connections;
    private final SenderGroup senders;
    private final IterationClock iterations;

    Coordinator(RunControl run, ConnectionSet connections, SenderGroup senders, IterationClock iterations) {
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

    /**
     * Time-based: back-to-back iterations of one continuous run, then the drain of what is still outstanding
     * at the last boundary, returned as its own figure (no iteration's: each was final when it ended).
     */
    DrainResult runTimed(List<IterationResult> results) {
        long from = iterations.beginIteration(0);
        if (ioDriver) {
            kick(false);
        } else {
            awaitPhase();
        }
        for (int i = 0; i < total(); i++) {
            if (i > 0) {
                // Back to back: it starts where the last one was cut.
                iterations.beginIteration(i, from, iterations.lastCut());
            }
            // Each iteration lasts --iteration-time from its actual start (JMH's rule), not to a nominal start + k x T:
            // after a stall (SIGSTOP, swapping, a long pause of the machine) the stalled iteration runs long and
            // the next ones are whole, instead of ending at once on boundaries already past, as samples of a
            // few milliseconds counted as full ones. The run drifts by the cut's microseconds per iteration.
            long boundary = from + spec.iterationNanos();
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
            if (cut || i == total() - 1) {
                // The load stops before the last cut, not after it: building and printing the iteration takes
                // milliseconds in which the senders would go on, and what they sent would be in no iteration
                // and not in flight at the cut either (thousands of messages at window 1). The drain then holds
                // only what was in flight at the cut.
                stopSending();
            }
            from = iterations.endIteration(results, from, cut);
            if (cut) {
                break;
            }
        }
        iterations.beginDrain();
        if (!ioDriver) {
            awaitPhase(); // the senders have seen stopSending and left their loops
        }
        drain();
        return iterations.endDrain();
    }

    private void stopSending() {
        run.stopSending = true;
        if (ioDriver) {
            for (LoadConnection c : connections) {
                c.remaining.set(0);
            }
        }
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
            if (lc.awaitingReplacement) {
                // The server is closing it: the watchdog sends this share once it has replaced it (or here,
                // if it did so meanwhile).
                lc.remaining.set(quota);
                if (!lc.awaitingReplacement) {
                    lc.resumeFromIo();
                }
                continue;
            }
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
                while (!c.finished() && !run.aborted()) {
                    long now = System.nanoTime(); // the grace is a safety net in real time
                    if (c.remaining.get() > 0 && !c.dead) {
                        deadline = now + grace; // still sending its quota: the clock has not started
                    }
                    if (now > deadline) {
                        run.abort(AbortCause.OUTSTANDING, "responses still outstanding " + TimeUnit.NANOSECONDS.toMillis(grace)
                                + " ms after the last send");
                        return;
                    }
                    long untilTick = iterations.nextTick() - clock.nanoTime();
                    LockSupport.parkNanos(Math.max(1, Math.min(10_000_000L, untilTick)));
                    iterations.tick();
                }
            } finally {
                c.drainWaiter = null;
            }
        }
    }
}
