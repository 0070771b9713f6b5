package io.nbench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.stats.LatencyHistograms;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A message's corrected and uncorrected latencies belong to the same interval, however the reader's
 * flip interleaves with the writer: otherwise an iteration's corrected and uncorrected counts differ by
 * the messages that completed while the reader was between two flips (43 of 556 on a loaded machine).
 */
class ThreadContextTest {

    @ParameterizedTest(name = "packed={0}")
    @ValueSource(booleans = {false, true})
    void bothLatenciesOfAMessageAreAlwaysInTheSameInterval(boolean packed) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        long[] recorded = new long[1];
        ThreadContext[] holder = new ThreadContext[1];
        Thread writer = new Thread(() -> {
            ThreadContext ctx = holder[0];
            long n = 0;
            while (!stop.get()) {
                ctx.record(2_000 + (n & 1023), 1_000 + (n & 1023));
                n++;
            }
            recorded[0] = n;
        }, "writer");
        holder[0] = new ThreadContext(writer, true, false, false, packed);
        writer.start();
        long corrected = 0;
        long uncorrected = 0;
        int unequal = 0;
        Histogram c = LatencyHistograms.newHistogram();
        Histogram u = LatencyHistograms.newHistogram();
        Histogram lag = LatencyHistograms.newHistogram();
        try {
            for (int i = 0; i < 300; i++) {
                c.reset();
                u.reset();
                holder[0].flip();
                holder[0].addFlipped(c, u, lag, null, null, null);
                if (c.getTotalCount() != u.getTotalCount()) {
                    unequal++;
                }
                corrected += c.getTotalCount();
                uncorrected += u.getTotalCount();
                if ((i & 63) == 0) {
                    Thread.yield(); // let the writer run between some flips, and be descheduled between others
                }
            }
        } finally {
            stop.set(true);
            writer.join(TimeUnit.SECONDS.toMillis(10));
        }
        holder[0].flip();
        c.reset();
        u.reset();
        holder[0].addFlipped(c, u, lag, null, null, null);
        corrected += c.getTotalCount();
        uncorrected += u.getTotalCount();
        assertTrue(recorded[0] > 0, "the writer recorded nothing");
        assertEquals(0, unequal, "intervals whose corrected and uncorrected counts differ");
        assertEquals(recorded[0], corrected);
        assertEquals(recorded[0], uncorrected);
    }

    /**
     * Inside a read batch the records skip the per-value critical section: the batch is one, so a flip
     * waits for it and a batch's values all land in one interval. Each batch here records 7 values; an
     * interval holding a count that is not a multiple of 7 would be a batch split by a flip.
     */
    @Test
    @Timeout(60)
    void theRecordsOfAReadBatchAreAllInOneIntervalAndTheBatchIsOneCriticalSection() throws Exception {
        int perBatch = 7;
        AtomicBoolean stop = new AtomicBoolean();
        long[] batches = new long[1];
        ThreadContext[] holder = new ThreadContext[1];
        Thread writer = new Thread(() -> {
            ThreadContext ctx = holder[0];
            long n = 0;
            while (!stop.get()) {
                ctx.beginRead();
                try {
                    for (int i = 0; i < perBatch; i++) {
                        ctx.record(1_000 + i);
                    }
                } finally {
                    ctx.endRead();
                }
                n++;
            }
            batches[0] = n;
        }, "writer");
        holder[0] = new ThreadContext(writer, false, false, false, false);
        writer.start();
        long total = 0;
        int split = 0;
        Histogram h = LatencyHistograms.newHistogram();
        try {
            for (int i = 0; i < 300; i++) {
                h.reset();
                holder[0].flip();
                holder[0].addFlipped(h, null, null, null, null, null);
                if (h.getTotalCount() % perBatch != 0) {
                    split++;
                }
                total += h.getTotalCount();
                if ((i & 63) == 0) {
                    Thread.yield();
                }
            }
        } finally {
            stop.set(true);
            writer.join(TimeUnit.SECONDS.toMillis(10));
        }
        holder[0].flip();
        h.reset();
        holder[0].addFlipped(h, null, null, null, null, null);
        total += h.getTotalCount();
        assertTrue(batches[0] > 0, "the writer recorded nothing");
        assertEquals(0, split, "intervals holding part of a batch");
        assertEquals(batches[0] * perBatch, total);
        assertEquals(batches[0], holder[0].criticalSections(), "one critical section per batch");
    }

    /**
     * A batch ended by an exception (the transport ends the read in a finally) leaves no critical section
     * open: the next flip returns, and what the batch recorded is in the interval it takes.
     */
    @Test
    @Timeout(30)
    void aBatchEndedByAnExceptionLetsTheNextFlipThrough() throws Exception {
        ThreadContext ctx = new ThreadContext(Thread.currentThread(), false, false, false, false);
        try {
            ctx.beginRead();
            try {
                ctx.record(5_000);
                throw new IllegalStateException("handler failed");
            } finally {
                ctx.endRead();
            }
        } catch (IllegalStateException expected) {
            // as a transport's read loop would
        }
        ctx.endRead(); // an unmatched end (a transport ending twice) is ignored, not a negative depth
        ctx.beginRead();
        ctx.record(6_000);
        ctx.endRead();
        Histogram h = LatencyHistograms.newHistogram();
        Thread flipper = new Thread(ctx::flip, "flipper");
        flipper.setDaemon(true); // if the flip hangs, the test fails without keeping the JVM up
        flipper.start();
        flipper.join(TimeUnit.SECONDS.toMillis(20));
        assertFalse(flipper.isAlive(), "the flip waits for a critical section nobody will exit");
        ctx.addFlipped(h, null, null, null, null, null);
        assertEquals(2, h.getTotalCount());
        assertEquals(2, ctx.criticalSections());
    }
}
