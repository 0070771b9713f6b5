package io.nbench.load;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The per-thread recorders of one run: every thread that records (I/O threads, senders, the watchdog)
 * gets its own {@link ThreadContext} the first time it asks, so recording never takes a lock or shares a
 * cache line. The coordinator reads them all at iteration and interval boundaries.
 */
final class Recorders {

    /**
     * Beyond this many connections, or with churn, recorders are packed: thread-per-connection transports
     * record on a thread of each connection (and churn starts new ones all the time).
     */
    static final int PACKED_ABOVE_CONNECTIONS = 32;

    /**
     * The first recording threads always get full histograms, whatever the connection count: with an
     * event-loop transport they are the few I/O threads that record every message of the run, and a
     * packed histogram costs them about 10 ns more per value (a tenth of the I/O thread's time at
     * 50 connections x window 16). Eight full sets cost about 4 MiB; later threads, which only a
     * thread-per-connection transport has, get packed ones.
     */
    static final int FULL_RECORDERS = 8;

    /** Whether a new recording thread, after {@code existing} others, gets packed histograms. */
    static boolean packedRecorder(int connections, boolean churn, int existing) {
        return churn || (connections > PACKED_ABOVE_CONNECTIONS && existing >= FULL_RECORDERS);
    }

    private final LoadSpec spec;
    private final ThreadLocal<ThreadContext> contexts = new ThreadLocal<>();
    private final List<ThreadContext> allContexts = new CopyOnWriteArrayList<>();
    /** Clamped counts of contexts whose threads have ended. Coordinator thread only. */
    private long retiredClamped;

    Recorders(LoadSpec spec) {
        this.spec = spec;
    }

    ThreadContext contextFor(Thread thread) {
        ThreadContext c = contexts.get();
        if (c == null) {
            boolean packed = packedRecorder(spec.connections(), spec.churn(), allContexts.size());
            c = new ThreadContext(thread, spec.openLoop(), spec.replacesConnections(), packed);
            contexts.set(c);
            allContexts.add(c);
        }
        return c;
    }

    /** Flips every recorder (each starts a new interval) and returns them, to add up what they flipped. */
    ThreadContext[] flipAll() {
        ThreadContext[] cs = allContexts.toArray(new ThreadContext[0]);
        for (ThreadContext c : cs) {
            c.flip();
        }
        return cs;
    }

    /**
     * Lets go of a recorder whose thread is gone (a churned connection's reader): everything it recorded
     * has been added by now (a terminated thread's writes are visible to whoever sees it dead).
     */
    void retire(ThreadContext c) {
        retiredClamped += c.clamped.get();
        allContexts.remove(c);
    }

    /** Values clamped to the histograms' range so far, by every recorder, live or retired. */
    long clamped() {
        long n = retiredClamped;
        for (ThreadContext c : allContexts) {
            n += c.clamped.get();
        }
        return n;
    }
}
