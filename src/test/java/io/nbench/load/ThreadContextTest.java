package io.nbench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.stats.LatencyHistograms;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.HdrHistogram.Histogram;
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
        holder[0] = new ThreadContext(writer, true, false, packed);
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
                holder[0].addFlipped(c, u, lag, null);
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
        holder[0].addFlipped(c, u, lag, null);
        corrected += c.getTotalCount();
        uncorrected += u.getTotalCount();
        assertTrue(recorded[0] > 0, "the writer recorded nothing");
        assertEquals(0, unequal, "intervals whose corrected and uncorrected counts differ");
        assertEquals(recorded[0], corrected);
        assertEquals(recorded[0], uncorrected);
    }
}
