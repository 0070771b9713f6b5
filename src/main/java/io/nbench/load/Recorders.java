package io.nbench.load;

import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

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
    /**
     * Every recorder in use. A concurrent set, not a copy-on-write list: with churn a reader thread per connection
     * adds one and the coordinator retires one per reconnect, and the list's copy per change (O(n) each, thousands
     * of recorders) made a harvest take longer than an iteration, which left more recorders to harvest: a 400 ms
     * iteration ran for seconds.
     */
    private final Set<ThreadContext> allContexts = ConcurrentHashMap.newKeySet();
    /**
     * Contexts no thread records into, for new recording threads to adopt: released by their threads as they ended
     * ({@link #release}; still in {@link #allContexts}, as what they hold is not harvested yet), or found at a
     * harvest with their threads gone (harvested, and no longer listed). Without it a transport with a reader thread
     * per connection (blocking, vthreads) made a new context, two sets of histograms, for every reconnect: 388-688
     * KiB allocated per message with {@code --requests-per-connection 1}, iterations of 3 s stretched to 16 s by
     * harvesting thousands of contexts, and 6.4 GB held at 8 connections. Adopting only what a harvest had found
     * still made a context per reconnect between two harvests (a second apart): 460-790 KiB per message on the
     * vthreads client and harvests that outlasted their iterations.
     */
    private final Queue<ThreadContext> retired = new ConcurrentLinkedQueue<>();
    /** Contexts made (not adopted) so far: for tests. */
    private final AtomicLong made = new AtomicLong();
    /** Clamped counts of contexts whose threads have ended. Coordinator thread only. */
    private long retiredClamped;

    Recorders(LoadSpec spec) {
        this.spec = spec;
    }

    ThreadContext contextFor(Thread thread) {
        ThreadContext c = contexts.get();
        if (c == null) {
            c = retired.poll();
            if (c != null) {
                c.adopt(thread); // before it is listed: the coordinator sees the new owner with the list
            } else {
                boolean packed = packedRecorder(spec.connections(), spec.churn(), allContexts.size());
                c = new ThreadContext(thread, spec.openLoop(), spec.replacesConnections(),
                        !spec.protocol().responsesVerifiable(), packed);
                made.incrementAndGet();
            }
            contexts.set(c);
            allContexts.add(c);
        }
        return c;
    }

    /**
     * The calling thread records nothing more (a connection's own reader, ending): its context goes, figures and
     * all, to the next new recording thread, which goes on recording into it; the harvest takes what both
     * recorded. One writer at a time still: this thread lets go before the queue hands it on. A thread inside a
     * read or a send keeps it (the harvest retires it once the thread is gone).
     */
    void release() {
        ThreadContext c = contexts.get();
        if (c == null || !c.idle()) {
            return;
        }
        contexts.remove();
        c.release();
        retired.add(c);
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
     * has been added by now (a terminated thread's writes are visible to whoever sees it dead), so a new
     * recording thread may adopt it.
     */
    void retire(ThreadContext c) {
        retiredClamped += c.clamped.getAndSet(0);
        allContexts.remove(c);
        retired.add(c);
    }

    /** Contexts made so far, not counting those adopted again (for tests). */
    long made() {
        return made.get();
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
