package io.nbench.load;

import java.util.concurrent.locks.LockSupport;

/**
 * A sender of the threads driver: the model of hand-written thread-per-connection benchmarks. It owns one or more connections (or shares one with
 * other senders when there are fewer connections than threads), and for each message takes a permit
 * from one of them, parking when none has a permit. Parking is a flag plus {@link LockSupport#park}, so
 * waiting allocates nothing (a {@code java.util.concurrent.Semaphore} allocates a queue node each time it
 * blocks).
 */
final class SenderThread extends Sender {

    private final RunControl run;
    private final SenderGroup group;
    private final ConnectionSet connectionSet;
    private final LoadConnection[] connections;
    private int next;

    SenderThread(SenderGroup group, int index, LoadConnection[] connections) {
        super("nbench-sender-" + index);
        this.run = group.run;
        this.group = group;
        this.connectionSet = group.connections;
        this.connections = connections;
    }

    @Override
    public void run() {
        try {
            while (group.awaitIterationStart()) {
                long quota = run.spec.timeBased() ? Long.MAX_VALUE : run.spec.msgsPerThread();
                int batch = run.spec.batch();
                int inBatch = 0;
                for (long n = 0; n < quota; n++) {
                    if (batch > 0 && inBatch == batch) {
                        awaitBatch();
                        inBatch = 0;
                    }
                    LoadConnection c = acquire();
                    if (c == null) {
                        break;
                    }
                    if (batch > 0) {
                        outstanding.incrementAndGet();
                        inBatch++;
                        c.sendOne(this);
                    } else {
                        c.sendOne();
                    }
                    c.sentOnConnection++;
                }
                if (batch > 0) {
                    awaitBatch();
                }
                group.senderFinished();
            }
        } catch (RuntimeException | Error e) {
            run.abort(AbortCause.INTERNAL, "sender thread failed: " + e);
            group.senderFinished();
        }
    }

    /** A connection of ours holding a permit for us, or null when sending must stop. */
    private LoadConnection acquire() {
        LoadConnection[] cs = connections;
        for (;;) {
            if (run.stopSending) {
                return null;
            }
            LoadConnection c = tryAll(cs);
            if (c != null) {
                return c;
            }
            if (allDead(cs)) {
                return null;
            }
            parked = true;
            c = tryAll(cs); // re-check after publishing the flag: a release in between sees it
            if (c != null) {
                parked = false;
                return c;
            }
            LockSupport.parkNanos(this, 50_000_000L);
            parked = false;
        }
    }

    /** Batch mode: waits until every message of the batch just sent is done. */
    private void awaitBatch() {
        while (outstanding.get() > 0 && !run.stopSending) {
            parked = true;
            if (outstanding.get() == 0) {
                parked = false;
                return;
            }
            LockSupport.parkNanos(this, 50_000_000L);
            parked = false;
        }
    }

    private LoadConnection tryAll(LoadConnection[] cs) {
        int n = cs.length;
        int perConnection = run.spec.requestsPerConnection();
        for (int k = 0; k < n; k++) {
            int i = next + k;
            if (i >= n) {
                i -= n;
            }
            LoadConnection c = cs[i];
            if (perConnection > 0 && c.sentOnConnection >= perConnection && !c.dead) {
                // Churn: this connection has sent its share; replace it once its last answer is in.
                if (!c.drained()) {
                    continue;
                }
                connectionSet.reconnect(c);
            } else if (c.peerCloses && !c.dead) {
                // The server closes this connection after its last response: replace it once that close came.
                if (!c.replaceNeeded.get() || !c.drained() || !c.replaceNeeded.compareAndSet(true, false)) {
                    continue;
                }
                connectionSet.replace(c);
                run.reconnects.increment();
            }
            if (!c.dead && c.tryAcquire()) {
                c.passOnWakeUp();
                next = i + 1 == n ? 0 : i + 1;
                return c;
            }
        }
        return null;
    }

    private static boolean allDead(LoadConnection[] cs) {
        for (LoadConnection c : cs) {
            if (!c.dead) {
                return false;
            }
        }
        return true;
    }
}
