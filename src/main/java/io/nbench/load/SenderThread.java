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
    /** This thread's place among the senders: which share of a count-based iteration it sends. */
    private final int index;
    private int next;

    SenderThread(SenderGroup group, int index, LoadConnection[] connections) {
        super("nbench-sender-" + index);
        this.index = index;
        this.run = group.run;
        this.group = group;
        this.connectionSet = group.connections;
        this.connections = connections;
    }

    @Override
    public void run() {
        try {
            while (group.awaitIterationStart()) {
                long quota = run.spec.timeBased() ? Long.MAX_VALUE : run.spec.msgsOfThread(index);
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
                awaitResends();
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
            replaceClosed(); // a message of the batch may wait to go out again on a replacement
            parked = true;
            if (outstanding.get() == 0) {
                parked = false;
                return;
            }
            LockSupport.parkNanos(this, 50_000_000L);
            parked = false;
        }
    }

    /**
     * Done sending: while one of our connections is closing (the server said so) with requests in flight, waits
     * for their answers or the close, and replaces the closed connection so that what the server left unanswered
     * goes out again. No other thread would: the iteration would wait for those requests until they time out.
     */
    private void awaitResends() {
        for (LoadConnection c : connections) {
            while ((c.peerCloses || c.replaceNeeded.get()) && !c.dead && !c.drained() && !run.aborted()
                    && !run.closing) {
                replaceClosed();
                parked = true;
                if (c.replaceNeeded.get() || c.drained()) {
                    parked = false;
                    continue;
                }
                LockSupport.parkNanos(this, 50_000_000L);
                parked = false;
            }
        }
    }

    /** Replaces each of our connections the server closed; its unanswered requests go out again on the new one. */
    private void replaceClosed() {
        for (LoadConnection c : connections) {
            if (c.replaceNeeded.get() && !c.dead && !run.closing && c.replaceNeeded.compareAndSet(true, false)) {
                connectionSet.replace(c);
                run.reconnects.increment();
            }
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
                // Churn: this connection has sent its share; replace it once its last answer is in (or once the
                // server closed it first: what it left unanswered then goes out again on the new one).
                if (!c.drained() && !c.replaceNeeded.get()) {
                    continue;
                }
                connectionSet.reconnect(c);
            } else if ((c.peerCloses || c.replaceNeeded.get()) && !c.dead) {
                // The server closes this connection after its last response: replace it once that close came;
                // requests written after that response go out again on the new one.
                if (!c.replaceNeeded.get() || !c.replaceNeeded.compareAndSet(true, false)) {
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
