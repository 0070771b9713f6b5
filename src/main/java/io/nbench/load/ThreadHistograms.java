package io.nbench.load;

import java.util.function.Supplier;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.WriterReaderPhaser;

/**
 * The histograms one thread records into (latency, and in the open loop the uncorrected latency and the
 * send lag; with churn the connect latency), swapped for empty ones <em>together</em> by the reader: one
 * {@link WriterReaderPhaser} for all of them, as HdrHistogram's recorders use one per histogram. With a
 * recorder per histogram, a reader descheduled between two flips (tens of milliseconds on a loaded
 * machine) put the messages completing meanwhile in one interval's corrected histogram and the next
 * interval's uncorrected one: an iteration's corrected and uncorrected counts differed by 43 of 556.
 * Here a message's values are recorded in one writer critical section, so they land in the same interval.
 *
 * <p>Writer: only the owning thread; wait-free (two atomic increments around the records). Reader: one
 * thread at a time; {@link #flip} waits only for a record in progress to finish.
 */
final class ThreadHistograms {

    static final int LATENCY = 0;
    static final int UNCORRECTED = 1;
    static final int SEND_LAG = 2;
    static final int CONNECTS = 3;
    private static final int KINDS = 4;

    private final WriterReaderPhaser phaser = new WriterReaderPhaser();
    /** Recorded into by the owner; replaced as a whole by {@link #flip}. Null where a kind is not kept. */
    private volatile Histogram[] active;
    /** The interval taken by the last flip, read by the reader until the next flip resets it. */
    private Histogram[] inactive;

    /**
     * @param openLoop keep the uncorrected latency and the send lag
     * @param churn    keep the connect latency
     */
    ThreadHistograms(boolean openLoop, boolean churn, Supplier<Histogram> factory) {
        active = histograms(openLoop, churn, factory);
        inactive = histograms(openLoop, churn, factory);
    }

    private static Histogram[] histograms(boolean openLoop, boolean churn, Supplier<Histogram> factory) {
        Histogram[] h = new Histogram[KINDS];
        h[LATENCY] = factory.get();
        if (openLoop) {
            h[UNCORRECTED] = factory.get();
            h[SEND_LAG] = factory.get();
        }
        if (churn) {
            h[CONNECTS] = factory.get();
        }
        return h;
    }

    /** Owner only. */
    void record(int kind, long value) {
        long critical = phaser.writerCriticalSectionEnter();
        try {
            active[kind].recordValue(value);
        } finally {
            phaser.writerCriticalSectionExit(critical);
        }
    }

    /** Owner only: two values of one message, always in the same interval. */
    void record(int kind1, long value1, int kind2, long value2) {
        long critical = phaser.writerCriticalSectionEnter();
        try {
            Histogram[] h = active;
            h[kind1].recordValue(value1);
            h[kind2].recordValue(value2);
        } finally {
            phaser.writerCriticalSectionExit(critical);
        }
    }

    /** Reader: ends the interval; its histograms are then read with {@link #flipped} until the next flip. */
    void flip() {
        phaser.readerLock();
        try {
            Histogram[] next = inactive;
            for (Histogram h : next) {
                if (h != null) {
                    h.reset();
                }
            }
            inactive = active;
            active = next;
            phaser.flipPhase(); // waits for records that began on the old array
        } finally {
            phaser.readerUnlock();
        }
    }

    /** Reader: the last flipped interval of {@code kind}, or null when it is not kept. */
    Histogram flipped(int kind) {
        return inactive[kind];
    }
}
