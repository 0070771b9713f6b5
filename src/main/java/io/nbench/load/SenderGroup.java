package io.nbench.load;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Phaser;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The sender threads of the threads driver, or the pacers of the open loop, and the barrier on which they
 * and the coordinator meet at each iteration's start and end. Empty with the io driver, whose I/O threads
 * send.
 */
final class SenderGroup {

    final RunControl run;
    final ConnectionSet connections;
    private final Sender[] senders;
    private final Phaser phaser;
    /** Set once the run is over: senders waiting for an iteration start exit instead. */
    private volatile boolean finished;
    /** Open loop: intended time of the first message of the iteration starting (the schedules' origin). */
    volatile long scheduleStart;

    /**
     * Threads driver: thread t owns connections t, t+T, ... or, with fewer connections, shares one.
     * Open loop: min(T, C) pacers, pacer p paces connections p, p+P, ...
     */
    SenderGroup(RunControl run, ConnectionSet connectionSet) {
        this.run = run;
        this.connections = connectionSet;
        LoadSpec spec = run.spec;
        LoadConnection[] connections = connectionSet.all();
        if (run.ioDriver) {
            this.senders = new Sender[0];
            this.phaser = null;
            return;
        }
        int threads = spec.openLoop() ? Math.min(spec.threads(), connections.length) : spec.threads();
        int conns = connections.length;
        senders = new Sender[threads];
        List<List<Sender>> waitersOf = new ArrayList<>();
        for (int c = 0; c < conns; c++) {
            waitersOf.add(new ArrayList<>());
        }
        for (int t = 0; t < threads; t++) {
            List<LoadConnection> mine = new ArrayList<>();
            if (conns >= threads) {
                for (int c = t; c < conns; c += threads) {
                    mine.add(connections[c]);
                }
            } else {
                mine.add(connections[t % conns]);
            }
            LoadConnection[] owned = mine.toArray(new LoadConnection[0]);
            senders[t] = spec.openLoop() ? new PacerThread(this, t, owned) : new SenderThread(this, t, owned);
            for (LoadConnection c : mine) {
                waitersOf.get(c.index).add(senders[t]);
            }
        }
        for (int c = 0; c < conns; c++) {
            connections[c].waiters = waitersOf.get(c).toArray(new Sender[0]);
        }
        phaser = new Phaser(threads + 1);
    }

    void start() {
        run.attach(senders);
        for (Sender s : senders) {
            s.start();
        }
    }

    /** Open loop: messages sent and max-inflight waits since the last call, summed over the pacers. */
    long[] takeCounts() {
        long sent = 0;
        long hits = 0;
        for (Sender s : senders) {
            long[] d = ((PacerThread) s).takeCounts();
            sent += d[0];
            hits += d[1];
        }
        return new long[] {sent, hits};
    }

    // ---- the barrier ------------------------------------------------------------------------------

    /** Sender side: waits for the next iteration; false when the run is over. */
    boolean awaitIterationStart() {
        phaser.arriveAndAwaitAdvance();
        return !finished;
    }

    /** Sender side: this sender has sent its share of the iteration. */
    void senderFinished() {
        phaser.arriveAndAwaitAdvance();
    }

    /** Coordinator side: arrives at the barrier; returns the phase to wait on. */
    int arrive() {
        return phaser.arrive();
    }

    /** Coordinator side: waits at most {@code nanos} for every sender to arrive at {@code phase}. */
    void awaitAdvance(int phase, long nanos) throws InterruptedException, TimeoutException {
        phaser.awaitAdvanceInterruptibly(phase, nanos, TimeUnit.NANOSECONDS);
    }

    /** Releases senders waiting for an iteration start; they see the run finished and exit. */
    void finish() {
        finished = true;
        if (senders.length > 0) {
            phaser.forceTermination();
        }
    }

    /** Waits for every sender to end; after {@link #finish} and once the connections are closed. */
    void join() {
        for (Sender s : senders) {
            try {
                s.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
