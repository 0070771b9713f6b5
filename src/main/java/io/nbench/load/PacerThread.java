package io.nbench.load;

import java.util.concurrent.locks.LockSupport;

/**
 * A sender of the open loop: paces its connections (connection c belongs to pacer c mod pacers) on
 * their schedules. It sleeps until the next message is due, sends every due message when it wakes
 * (catch-up, intended times unchanged), and parks on the connections' permits when {@code --max-inflight}
 * is reached. With {@code --pacer sleep} (the default) it never spins for long: parking overshoots by the
 * OS timer slack (about 50-100 µs on Linux), which shows in the send-lag histogram and is included, as it
 * should be, in the corrected latency. With {@code --pacer spin} it busy-waits instead, for sub-millisecond
 * latencies, at the cost of a core per pacer.
 */
final class PacerThread extends Sender {

    private static final long SPIN_BELOW_NANOS = 5_000;

    private final RunControl run;
    private final SenderGroup group;
    /** --pacer spin: busy-wait for every message instead of parking (no timer slack, a core per pacer). */
    private final boolean spin;
    /** --pacer hybrid: parks until shortly before the message is due and spins the rest; null otherwise. */
    private final WakeUpLead wakeUpLead;
    private final LoadConnection[] connections;
    private final Pacer.Target[] targets;
    private volatile Pacer pacer;
    private long sentBefore;
    private long hitsBefore;

    PacerThread(SenderGroup group, int index, LoadConnection[] connections) {
        super("nbench-pacer-" + index);
        this.run = group.run;
        this.group = group;
        this.spin = run.spec.pacing() == Pacing.SPIN;
        this.wakeUpLead = run.spec.pacing() == Pacing.HYBRID ? new WakeUpLead(Math.min(run.spec.threads(), run.spec.connections())) : null;
        this.connections = connections;
        this.targets = new Pacer.Target[connections.length];
        for (int i = 0; i < connections.length; i++) {
            LoadConnection c = connections[i];
            targets[i] = new Pacer.Target() {
                @Override
                public boolean tryAcquire() {
                    // Not on a connection the server is closing: the message waits (its intended time kept)
                    // for the replacement, which the watchdog opens.
                    return !c.peerCloses && c.tryAcquire();
                }

                @Override
                public void send(long intendedNanos) {
                    c.sendOne(intendedNanos);
                }

                @Override
                public boolean dead() {
                    return c.dead;
                }
            };
        }
    }

    /** Messages sent and max-inflight waits since the last call; read by the coordinator at boundaries. */
    long[] takeCounts() {
        Pacer p = pacer;
        if (p == null) {
            return new long[2];
        }
        long sent = p.sent();
        long hits = p.maxInflightHits();
        long[] d = {sent - sentBefore, hits - hitsBefore};
        sentBefore = sent;
        hitsBefore = hits;
        return d;
    }

    @Override
    public void run() {
        try {
            while (group.awaitIterationStart()) {
                if (pacer == null || !run.spec.timeBased()) {
                    startSchedules();
                }
                pace();
                group.senderFinished();
            }
        } catch (RuntimeException | Error e) {
            run.abort(AbortCause.INTERNAL, "pacer thread failed: " + e);
            group.senderFinished();
        }
    }

    /**
     * New schedules from the iteration's start (not from when this thread woke up: a late wake-up is
     * send lag, caught up, and the messages due in the iteration stay rate x wall time): per iteration
     * when count-based, once for a time-based run.
     */
    private void startSchedules() {
        long start = group.scheduleStart;
        double perConnection = run.spec.rate() / run.spec.connections();
        OpenLoopSchedule[] schedules = new OpenLoopSchedule[connections.length];
        long[] quota = new long[connections.length];
        long total = run.spec.messagesPerIteration();
        int conns = run.spec.connections();
        for (int i = 0; i < connections.length; i++) {
            int c = connections[i].index;
            // Spread connections' first messages over one interval so they do not all fire together.
            long offset = (long) (c * 1e9 / run.spec.rate());
            schedules[i] = new OpenLoopSchedule(start + offset, perConnection);
            quota[i] = run.spec.timeBased() ? Long.MAX_VALUE : total / conns + (c < total % conns ? 1 : 0);
        }
        Pacer old = pacer;
        if (old != null) {
            sentBefore -= old.sent();
            hitsBefore -= old.maxInflightHits();
        }
        pacer = new Pacer(targets, schedules, quota, run.clock::nanoTime);
    }

    private void pace() {
        Pacer p = pacer;
        for (;;) {
            if (run.stopSending) {
                return;
            }
            long next = p.sendDue();
            if (next == Long.MAX_VALUE && !p.anyBlocked()) {
                return; // every quota spent
            }
            long now = run.clock.nanoTime();
            long wait = next == Long.MAX_VALUE ? Long.MAX_VALUE : next - now;
            if (p.anyBlocked()) {
                awaitRoom(p, wait);
            } else if (wait > SPIN_BELOW_NANOS && !spin && (wakeUpLead == null || !wakeUpLead.spinsUntil(next))) {
                long asked = wakeUpLead == null ? wait : wakeUpLead.parkFor(next, now);
                run.clock.park(this, asked);
                if (wakeUpLead != null) {
                    wakeUpLead.woke(asked, run.clock.nanoTime() - now);
                }
            } else if (wait > 0) {
                Thread.onSpinWait();
            }
        }
    }

    /**
     * A due message waits for room in flight on a blocked connection: park until one of the blocked
     * connections releases a permit (it unparks its waiters) or another connection's next message is due.
     */
    private void awaitRoom(Pacer p, long untilNextDue) {
        parked = true;
        for (int i = 0; i < connections.length; i++) {
            LoadConnection c = connections[i];
            if (p.blocked(i) && (c.dead || c.permits.get() > 0 && !c.peerCloses)) {
                parked = false;
                return;
            }
        }
        if (untilNextDue > 0) {
            LockSupport.parkNanos(this, Math.min(untilNextDue, 10_000_000L));
        }
        parked = false;
    }
}
