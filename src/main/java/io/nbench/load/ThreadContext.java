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
    final SingleWriterRecorder recorder = LatencyHistograms.newRecorder();
    final AtomicLong clamped = new AtomicLong();
    private Histogram recycled;

    /** True while this thread is inside a send issued by the io driver. */
    boolean sending;
    private LoadConnection[] deferred = new LoadConnection[16];
    private int head;
    private int tail;

    ThreadContext(Thread owner) {
        this.owner = owner;
    }

    /** Records one latency; values beyond the histogram's range are clamped and counted, negatives are 0. */
    void record(long nanos) {
        if (nanos > LatencyHistograms.MAX_NANOS) {
            clamped.incrementAndGet();
            nanos = LatencyHistograms.MAX_NANOS;
        } else if (nanos < 0) {
            nanos = 0;
        }
        recorder.recordValue(nanos);
    }

    /** Adds everything recorded since the last call to {@code target} (reader side; any thread). */
    void drainInto(Histogram target) {
        Histogram interval = recorder.getIntervalHistogram(recycled);
        target.add(interval);
        recycled = interval;
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
