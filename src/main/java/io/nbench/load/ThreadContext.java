package io.nbench.load;

import io.nbench.stats.LatencyHistograms;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * State owned by one thread that records or sends: its histograms (one set per recording thread, never
 * per connection, so a thousand connections cost no more memory than four) and
 * the trampoline that keeps the io driver from recursing when a transport reports a completion inline.
 * Only {@link #owner} touches the mutable fields; the engine's coordinator takes the histograms through
 * {@link ThreadHistograms}' writer-reader protocol, which is designed for exactly that.
 */
final class ThreadContext {

    /**
     * The thread that records into this context; null while released ({@link #release}). Changes only when a
     * context no thread records into (released by its thread, or its thread gone) is adopted by a new recording
     * thread ({@link Recorders#contextFor}); volatile for the coordinator, which retires a context once it sees its
     * owner dead.
     */
    volatile Thread owner;
    /**
     * Latency from the intended send time (open loop, corrected) or the actual one (closed loop); open
     * loop only, latency from the actual send (uncorrected) and send lag (actual - intended); churn only,
     * connect latency of reconnects made by this thread and, with TLS, their handshakes'. Flipped together.
     */
    private final ThreadHistograms histograms;
    private final boolean openLoop;
    private final boolean churn;
    /** HTTP: latency is also kept by status class. */
    private final boolean statusClasses;
    final AtomicLong clamped = new AtomicLong();

    /** True while this thread is inside a send issued by the io driver. */
    boolean sending;

    /**
     * Between a transport's onReadStart and onReadEnd: responses of one read, which share one clock
     * reading ({@link #readTime}, taken at the first of them; {@link LoadConnection#NO_TIME} until then).
     */
    boolean inRead;
    long readTime;
    /** Reads begun and not ended (they may nest); {@link #inRead} while above 0. */
    private int readDepth;
    /**
     * Times a connection looked this context up ({@link LoadConnection#context}). A plain field of the
     * owner: tests read it after the run to count look-ups per message.
     */
    long lookups;
    private LoadConnection[] deferred = new LoadConnection[16];
    private int head;
    private int tail;

    /**
     * @param packed packed histograms (small, a little slower): for runs with many recording threads, so
     *               that a thread per connection does not cost a quarter of a megabyte per connection
     */
    ThreadContext(Thread owner, boolean openLoop, boolean churn, boolean statusClasses, boolean packed) {
        this.owner = owner;
        this.openLoop = openLoop;
        this.churn = churn;
        this.statusClasses = statusClasses;
        // Both sets of histograms are allocated here, so that the first flip at an iteration boundary
        // allocates nothing and takes microseconds, as every later one does.
        this.histograms = new ThreadHistograms(openLoop, churn, statusClasses,
                packed ? LatencyHistograms::newPackedHistogram : LatencyHistograms::newHistogram);
    }

    /**
     * A transport's read begins on this (the owner's) thread: its responses share one clock reading and
     * one histogram critical section ({@link ThreadHistograms#enterBatch}). Every call must be matched by
     * {@link #endRead}, also when handling the read throws.
     */
    void beginRead() {
        if (readDepth++ == 0) {
            inRead = true;
            readTime = LoadConnection.NO_TIME; // read lazily: a read may complete no response
            histograms.enterBatch();
        }
    }

    /** Ends what {@link #beginRead} began (an unmatched call is ignored). */
    void endRead() {
        if (readDepth > 0 && --readDepth == 0) {
            inRead = false;
            histograms.exitBatch();
        }
    }

    /** The owner is in no read, no send and has nothing deferred: it may let go ({@link #release}). */
    boolean idle() {
        return readDepth == 0 && !sending && head == tail;
    }

    /** The owner lets go, recording nothing more here; a new thread adopts it through {@link Recorders}' queue. */
    void release() {
        owner = null;
    }

    /**
     * A new recording thread takes over this context, which no thread records into: released by its thread, or its
     * thread gone. It records on into the active histograms (what they hold is harvested at the next flip with
     * what it adds); its per-read state starts afresh; the counters for tests go on.
     */
    void adopt(Thread thread) {
        owner = thread;
        sending = false;
        inRead = false;
        readTime = LoadConnection.NO_TIME;
        readDepth = 0;
        head = 0;
        tail = 0;
    }

    /** Histogram critical sections entered by the owner so far (for tests). */
    long criticalSections() {
        return histograms.criticalSections;
    }

    /** Records one latency; values beyond the histogram's range are clamped and counted, negatives are 0. */
    void record(long nanos) {
        histograms.record(ThreadHistograms.LATENCY, clamp(nanos));
    }

    /** Open loop: one completed message, from its intended and from its actual send time, in one interval. */
    void record(long corrected, long uncorrectedNanos) {
        histograms.record(ThreadHistograms.LATENCY, clamp(corrected), ThreadHistograms.UNCORRECTED, clamp(uncorrectedNanos));
    }

    /**
     * HTTP: one response of status {@code code}, its latency also kept in its status class (none for a code outside
     * 200-599); {@code uncorrectedNanos} only in the open loop.
     */
    void recordResponse(int code, long nanos, long uncorrectedNanos) {
        int cls = code / 100 - 2;
        if (!statusClasses || cls < 0 || cls >= ThreadHistograms.STATUS_CLASSES) {
            if (openLoop) {
                record(nanos, uncorrectedNanos);
            } else {
                record(nanos);
            }
            return;
        }
        long value = clamp(nanos);
        if (openLoop) {
            histograms.record(ThreadHistograms.LATENCY, value, ThreadHistograms.UNCORRECTED, clamp(uncorrectedNanos),
                    ThreadHistograms.CLASS_2XX + cls, value);
        } else {
            histograms.record(ThreadHistograms.LATENCY, value, ThreadHistograms.CLASS_2XX + cls, value);
        }
    }

    /** A response of {@code bytes} bytes on the wire was received, in the interval of the read that brought it. */
    void received(int bytes) {
        histograms.received(bytes);
    }

    /** Reader side: the bytes of the responses received in the last {@link #flip}'s interval. */
    long flippedBytesIn() {
        return histograms.flippedBytesIn();
    }

    /** Open loop: how late a message was sent. */
    void recordLag(long nanos) {
        histograms.record(ThreadHistograms.SEND_LAG, clamp(nanos));
    }

    void recordConnect(long nanos) {
        histograms.record(ThreadHistograms.CONNECTS, clamp(nanos));
    }

    /**
     * With TLS: the part of a reconnect from the TCP connection's establishment to the handshake's end; a resumed
     * handshake is also kept apart, in the same critical section, so an interval's two counts agree.
     */
    void recordHandshake(long nanos, boolean resumed) {
        long value = clamp(nanos);
        if (resumed) {
            histograms.record(ThreadHistograms.HANDSHAKES, value, ThreadHistograms.RESUMED_HANDSHAKES, value);
        } else {
            histograms.record(ThreadHistograms.HANDSHAKES, value);
        }
    }

    private long clamp(long nanos) {
        if (nanos > LatencyHistograms.MAX_NANOS) {
            clamped.incrementAndGet();
            return LatencyHistograms.MAX_NANOS;
        }
        return Math.max(0, nanos);
    }

    /**
     * Reader side (one thread at a time): takes what this thread recorded since the last flip, all its
     * histograms at one instant and without merging, so that a boundary reads every thread within
     * microseconds of each other.
     */
    void flip() {
        histograms.flip();
    }

    /** Reader side: adds what the last {@link #flip} took to the targets (null targets are skipped). */
    void addFlipped(Histogram latency, Histogram uncorrectedTarget, Histogram lagTarget, Histogram connectsTarget,
                    Histogram handshakesTarget, Histogram resumedTarget) {
        latency.add(histograms.flipped(ThreadHistograms.LATENCY));
        if (openLoop && uncorrectedTarget != null) {
            uncorrectedTarget.add(histograms.flipped(ThreadHistograms.UNCORRECTED));
            lagTarget.add(histograms.flipped(ThreadHistograms.SEND_LAG));
        }
        if (churn && connectsTarget != null) {
            connectsTarget.add(histograms.flipped(ThreadHistograms.CONNECTS));
            handshakesTarget.add(histograms.flipped(ThreadHistograms.HANDSHAKES));
            resumedTarget.add(histograms.flipped(ThreadHistograms.RESUMED_HANDSHAKES));
        }
    }

    /** Reader: adds the last flip's latency by status class (2xx first) to {@code targets}, when kept. */
    void addFlippedClasses(Histogram[] targets) {
        if (statusClasses && targets != null) {
            for (int i = 0; i < ThreadHistograms.STATUS_CLASSES; i++) {
                targets[i].add(histograms.flipped(ThreadHistograms.CLASS_2XX + i));
            }
        }
    }

    void defer(LoadConnection c) {
        if (tail - head == deferred.length) {
            LoadConnection[] bigger = new LoadConnection[deferred.length * 2];
            for (int i = head; i < tail; i++) {
                bigger[i - head] = deferred[i & (deferred.length - 1)];
            }
            tail -= head;
            head = 0;
            deferred = bigger;
        }
        deferred[tail++ & (deferred.length - 1)] = c;
    }

    LoadConnection pollDeferred() {
        if (head == tail) {
            head = 0;
            tail = 0;
            return null;
        }
        LoadConnection c = deferred[head & (deferred.length - 1)];
        deferred[head++ & (deferred.length - 1)] = null;
        return c;
    }
}
