package io.nbench.server.metrics;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * A histogram that any number of I/O threads record into without a lock, read by one reader at a time.
 *
 * <p>Concurrency protocol: writers call {@link #record} from any thread; it is wait-free (HdrHistogram's
 * {@link Recorder}: a {@code WriterReaderPhaser} around an atomic increment). The values are spread over a
 * few Recorders chosen by the writer's thread id, so that two I/O threads rarely write to the same cache
 * lines. The reader, holding its owner's lock, calls {@link #drainInto}: each stripe's interval is swapped
 * out (the phaser waits for writers already inside their short critical section, never for a lock) and
 * added to the reader's own accumulating histograms, which writers never touch. A value recorded during
 * a drain lands in this interval or the next one, never in neither.
 *
 * <p>Stripes rather than one Recorder per thread: a per-connection thread (blocking, virtual threads)
 * would otherwise hold two histograms per thread and connection, where the stripes' memory is fixed.
 */
final class StripedRecorder {

    static final int SIGNIFICANT_DIGITS = 3;

    private final Recorder[] stripes;
    private final Histogram[] spares;
    private final int mask;

    StripedRecorder() {
        int n = Integer.highestOneBit(Math.max(1, Runtime.getRuntime().availableProcessors() * 2 - 1)) << 1;
        stripes = new Recorder[n];
        spares = new Histogram[n];
        mask = n - 1;
        for (int i = 0; i < n; i++) {
            stripes[i] = new Recorder(SIGNIFICANT_DIGITS); // auto-resizing: memory grows with the largest value only
        }
    }

    /** Writer side, any thread. A negative value (a clock that stepped back) counts as 0. */
    @SuppressWarnings("deprecation") // Thread.getId: threadId() is JDK 19+, and this builds for 17
    void record(long value) {
        stripes[(int) Thread.currentThread().getId() & mask].recordValue(Math.max(0, value));
    }

    /** Reader side, under the owner's lock: adds everything recorded since the last drain to each target. */
    void drainInto(Histogram... targets) {
        for (int i = 0; i < stripes.length; i++) {
            Histogram interval = stripes[i].getIntervalHistogram(spares[i]);
            spares[i] = interval;
            if (interval.getTotalCount() > 0) {
                for (Histogram t : targets) {
                    t.add(interval);
                }
            }
        }
    }

    /** An empty accumulator that any drain can be added to. */
    static Histogram accumulator() {
        return new Histogram(SIGNIFICANT_DIGITS);
    }
}
