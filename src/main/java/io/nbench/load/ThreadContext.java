package io.nbench.load;

import io.nbench.stats.LatencyHistograms;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * State owned by one thread that records or sends: its latency recorder (one SingleWriterRecorder per
 * recording thread, never per connection, so a thousand connections cost no more memory than four) and
 * the trampoline that keeps the io driver from recursing when a transport reports a completion inline.
 * Only {@link #owner} touches the mutable fields; the engine's coordinator reads the recorder through
 * its interval-histogram API, which is designed for exactly that.
 */
final class ThreadContext {

    final Thread owner;
    /** Latency: from the intended send time (open loop, corrected) or the actual one (closed loop). */
    final SingleWriterRecorder recorder;
    /** Open loop only: latency from the actual send (uncorrected), and send lag (actual - intended). */
    final SingleWriterRecorder uncorrected;
    final SingleWriterRecorder sendLag;
    /** Churn only: connect latency of reconnects made by this thread. */
    final SingleWriterRecorder connects;
    final AtomicLong clamped = new AtomicLong();
    // The last interval taken from each recorder by flip(): added to the iteration by addFlipped(), then
    // handed back to its recorder at the next flip to be reused.
    private Histogram flippedConnects;
    private Histogram flipped;
    private Histogram flippedUncorrected;
    private Histogram flippedLag;

    /** True while this thread is inside a send issued by the io driver. */
    boolean sending;
    private LoadConnection[] deferred = new LoadConnection[16];
    private int head;
    private int tail;

    /**
     * @param packed packed recorders (small, a little slower): for runs with many recording threads, so
     *               that a thread per connection does not cost a quarter of a megabyte per connection
     */
    ThreadContext(Thread owner, boolean openLoop, boolean churn, boolean packed) {
        this.owner = owner;
        this.recorder = recorder(packed);
        this.connects = churn ? recorder(packed) : null;
        this.uncorrected = openLoop ? recorder(packed) : null;
        this.sendLag = openLoop ? recorder(packed) : null;
        // A first, empty flip now gives each recorder its spare histogram, so that the first flip at an
        // iteration boundary allocates nothing and takes microseconds, as every later one does.
        flip();
    }

    private static SingleWriterRecorder recorder(boolean packed) {
        return packed ? LatencyHistograms.newPackedRecorder() : LatencyHistograms.newRecorder();
    }

    /** Records one latency; values beyond the histogram's range are clamped and counted, negatives are 0. */
    void record(long nanos) {
        recorder.recordValue(clamp(nanos));
    }

    /** Open loop: one completed message, from its intended and from its actual send time. */
    void record(long corrected, long uncorrectedNanos) {
        recorder.recordValue(clamp(corrected));
        uncorrected.recordValue(clamp(uncorrectedNanos));
    }

    /** Open loop: how late a message was sent. */
    void recordLag(long nanos) {
        sendLag.recordValue(clamp(nanos));
    }

    void recordConnect(long nanos) {
        connects.recordValue(clamp(nanos));
    }

    private long clamp(long nanos) {
        if (nanos > LatencyHistograms.MAX_NANOS) {
            clamped.incrementAndGet();
            return LatencyHistograms.MAX_NANOS;
        }
        return Math.max(0, nanos);
    }

    /**
     * Reader side (one thread at a time): takes what every recorder recorded since the last flip, at once
     * and without merging, so that a boundary reads all recorders within microseconds of each other.
     */
    void flip() {
        flipped = recorder.getIntervalHistogram(flipped);
        if (uncorrected != null) {
            flippedUncorrected = uncorrected.getIntervalHistogram(flippedUncorrected);
            flippedLag = sendLag.getIntervalHistogram(flippedLag);
        }
        if (connects != null) {
            flippedConnects = connects.getIntervalHistogram(flippedConnects);
        }
    }

    /** Reader side: adds what the last {@link #flip} took to the targets (null targets are skipped). */
    void addFlipped(Histogram latency, Histogram uncorrectedTarget, Histogram lagTarget, Histogram connectsTarget) {
        latency.add(flipped);
        if (uncorrected != null && uncorrectedTarget != null) {
            uncorrectedTarget.add(flippedUncorrected);
            lagTarget.add(flippedLag);
        }
        if (connects != null && connectsTarget != null) {
            connectsTarget.add(flippedConnects);
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
