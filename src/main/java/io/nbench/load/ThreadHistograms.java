package io.nbench.load;

import java.util.function.Supplier;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.WriterReaderPhaser;

/**
 * The histograms one thread records into (latency, and in the open loop the uncorrected latency and the
 * send lag; with churn the connect latency) and its count of bytes received, swapped for empty ones
 * <em>together</em> by the reader: one
 * {@link WriterReaderPhaser} for all of them, as HdrHistogram's recorders use one per histogram. With a
 * recorder per histogram, a reader descheduled between two flips (tens of milliseconds on a loaded
 * machine) put the messages completing meanwhile in one interval's corrected histogram and the next
 * interval's uncorrected one: an iteration's corrected and uncorrected counts differed by 43 of 556.
 * Here a message's values are recorded in one writer critical section, so they land in the same interval.
 *
 * <p>Writer: only the owning thread; wait-free. A record outside a batch is its own critical section (two
 * atomic increments around it). Inside a <em>batch</em> ({@link #enterBatch} .. {@link #exitBatch}: an
 * I/O thread's read, whose responses it decodes and records in one go) the whole batch is one critical
 * section and its records go straight into the histograms taken at its start: two atomic increments per
 * read instead of two per value (they were 0.4 % of the nio I/O thread at 50 x 16, and a read there
 * brings about 16 responses). Batches nest; only the outermost one enters and exits.
 *
 * <p>Reader: one thread at a time; {@link #flip} waits for a record, or a batch, in progress to end. A
 * batch is the decoding of one socket read (microseconds), so a flip may now wait that long, or as long
 * as the writer is descheduled inside a batch. That is safe only because nothing done inside a batch
 * waits for the reader (the coordinator): the batch's work (completing messages, sending the next
 * ones, counting errors, aborting the run) takes no lock the coordinator holds while it flips, and
 * never waits for the coordinator. Whoever enters a batch must exit it, also when the work in it throws
 * (the transport calls onReadEnd in a finally), or the next flip waits for ever.
 */
final class ThreadHistograms {

    static final int LATENCY = 0;
    static final int UNCORRECTED = 1;
    static final int SEND_LAG = 2;
    static final int CONNECTS = 3;
    static final int HANDSHAKES = 4;
    /** The resumed ones of {@link #HANDSHAKES}, recorded in the same critical section. */
    static final int RESUMED_HANDSHAKES = 5;
    /**
     * HTTP: the latency of the responses of status class 2xx (then 3xx, 4xx, 5xx at the next indexes), recorded in
     * the same critical section as their {@link #LATENCY}.
     */
    static final int CLASS_2XX = 6;
    static final int STATUS_CLASSES = 4;
    private static final int KINDS = CLASS_2XX + STATUS_CLASSES;

    private final WriterReaderPhaser phaser = new WriterReaderPhaser();
    /**
     * What one interval holds: the histograms (null where a kind is not kept) and the bytes of the responses
     * received, swapped as one by {@link #flip} so that a response's bytes land in the interval of its latency.
     */
    private static final class Interval {
        final Histogram[] h;
        long bytesIn;

        Interval(Histogram[] h) {
            this.h = h;
        }
    }

    /** Recorded into by the owner; replaced as a whole by {@link #flip}. */
    private volatile Interval active;
    /** Writer only: how deep in nested batches the owner is (0 = outside any batch). */
    private int batchDepth;
    /** Writer only, in a batch: the phaser's value to exit with, and the histograms taken at its start. */
    private long batchCritical;
    private Interval batchActive;
    /**
     * Writer only: critical sections entered so far. A plain field of the owner (no atomic, no shared
     * cache line): tests read it after the run to count critical sections per message.
     */
    long criticalSections;
    /** The interval taken by the last flip, read by the reader until the next flip resets it. */
    private Interval inactive;

    /**
     * @param openLoop keep the uncorrected latency and the send lag
     * @param churn    keep the connect latency and the handshake latency
     * @param statusClasses keep the latency by status class (HTTP)
     */
    ThreadHistograms(boolean openLoop, boolean churn, boolean statusClasses, Supplier<Histogram> factory) {
        active = new Interval(histograms(openLoop, churn, statusClasses, factory));
        inactive = new Interval(histograms(openLoop, churn, statusClasses, factory));
    }

    private static Histogram[] histograms(boolean openLoop, boolean churn, boolean statusClasses,
                                          Supplier<Histogram> factory) {
        Histogram[] h = new Histogram[KINDS];
        h[LATENCY] = factory.get();
        if (openLoop) {
            h[UNCORRECTED] = factory.get();
            h[SEND_LAG] = factory.get();
        }
        if (churn) {
            h[CONNECTS] = factory.get();
            h[HANDSHAKES] = factory.get(); // empty without TLS: a packed histogram costs little
            h[RESUMED_HANDSHAKES] = factory.get();
        }
        if (statusClasses) {
            for (int i = 0; i < STATUS_CLASSES; i++) {
                h[CLASS_2XX + i] = factory.get();
            }
        }
        return h;
    }

    /**
     * Owner only: from here to the matching {@link #exitBatch} every record is in one critical section,
     * so all of them land in the same interval. Must be exited, also on an exception.
     */
    void enterBatch() {
        if (batchDepth++ == 0) {
            criticalSections++;
            batchCritical = phaser.writerCriticalSectionEnter();
            // Read after entering: if a flip has already swapped the arrays, these are the new ones; if
            // not, the flip waits for this batch before anyone reads the old ones.
            batchActive = active;
        }
    }

    /** Owner only: ends what {@link #enterBatch} began (an unmatched call is ignored). */
    void exitBatch() {
        if (batchDepth > 0 && --batchDepth == 0) {
            batchActive = null;
            phaser.writerCriticalSectionExit(batchCritical);
        }
    }

    /** Owner only. */
    void record(int kind, long value) {
        if (batchDepth > 0) {
            batchActive.h[kind].recordValue(value);
            return;
        }
        criticalSections++;
        long critical = phaser.writerCriticalSectionEnter();
        try {
            active.h[kind].recordValue(value);
        } finally {
            phaser.writerCriticalSectionExit(critical);
        }
    }

    /** Owner only: two values of one message, always in the same interval. */
    void record(int kind1, long value1, int kind2, long value2) {
        record(kind1, value1, kind2, value2, NONE, 0);
    }

    /** No third value: {@link #record(int, long, int, long, int, long)} records two. */
    private static final int NONE = -1;

    /**
     * Owner only: two or three values of one message (open loop, by status class; {@code kind3} {@link #NONE} for
     * two), always in the same interval.
     */
    void record(int kind1, long value1, int kind2, long value2, int kind3, long value3) {
        if (batchDepth > 0) {
            Histogram[] h = batchActive.h;
            h[kind1].recordValue(value1);
            h[kind2].recordValue(value2);
            if (kind3 != NONE) {
                h[kind3].recordValue(value3);
            }
            return;
        }
        criticalSections++;
        long critical = phaser.writerCriticalSectionEnter();
        try {
            Histogram[] h = active.h;
            h[kind1].recordValue(value1);
            h[kind2].recordValue(value2);
            if (kind3 != NONE) {
                h[kind3].recordValue(value3);
            }
        } finally {
            phaser.writerCriticalSectionExit(critical);
        }
    }

    /** Reader: ends the interval; its histograms are then read with {@link #flipped} until the next flip. */
    void flip() {
        phaser.readerLock();
        try {
            Interval next = inactive;
            for (Histogram h : next.h) {
                if (h != null) {
                    h.reset();
                }
            }
            next.bytesIn = 0;
            inactive = active;
            active = next;
            phaser.flipPhase(); // waits for records that began on the old array
        } finally {
            phaser.readerUnlock();
        }
    }

    /** Reader: the last flipped interval of {@code kind}, or null when it is not kept. */
    Histogram flipped(int kind) {
        return inactive.h[kind];
    }

    /** Reader: the bytes of the responses received in the last flipped interval. */
    long flippedBytesIn() {
        return inactive.bytesIn;
    }

    /**
     * Owner only: a response of {@code bytes} bytes on the wire was received. Inside a batch (every transport
     * brackets its reads) a plain addition; outside one, a critical section of its own.
     */
    void received(long bytes) {
        if (batchDepth > 0) {
            batchActive.bytesIn += bytes;
            return;
        }
        criticalSections++;
        long critical = phaser.writerCriticalSectionEnter();
        try {
            active.bytesIn += bytes;
        } finally {
            phaser.writerCriticalSectionExit(critical);
        }
    }
}
