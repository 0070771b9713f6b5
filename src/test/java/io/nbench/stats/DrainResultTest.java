package io.nbench.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.transport.ErrorKind;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The drain is reported when it brought anything in: a completed message or an error. */
class DrainResultTest {

    @Test
    void anythingAtAll() {
        ErrorCounts none = new ErrorCounts();
        ErrorCounts oneTimeout = new ErrorCounts();
        oneTimeout.add(ErrorKind.TIMEOUT);
        assertFalse(new DrainResult(0, 5, LatencyHistograms.newHistogram(), none.snapshot()).any());
        assertTrue(new DrainResult(1, 5, LatencyHistograms.newHistogram(), none.snapshot()).any());
        assertTrue(new DrainResult(0, 5, LatencyHistograms.newHistogram(), oneTimeout.snapshot()).any());
    }

    /** nbench run's rounds: each round's drain added, the latencies of both in one histogram, the inputs untouched. */
    @Test
    void twoDrainsAddUp() {
        Histogram a = LatencyHistograms.newHistogram();
        a.recordValue(1_000);
        a.recordValue(3_000);
        Histogram b = LatencyHistograms.newHistogram();
        b.recordValue(2_000_000);
        ErrorCounts timeouts = new ErrorCounts();
        timeouts.add(ErrorKind.TIMEOUT);
        ErrorCounts none = new ErrorCounts();
        DrainResult first = new DrainResult(2, 100, a, none.snapshot());
        DrainResult second = new DrainResult(1, 250, b, timeouts.snapshot());

        DrainResult both = DrainResult.plus(first, second);
        assertEquals(3, both.messages());
        assertEquals(350, both.wallNanos());
        assertEquals(3, both.latency().getTotalCount());
        assertEquals(2_000_000, both.latency().getMaxValue(), 2_000_000 * 0.001);
        assertEquals(1, both.errors().get(ErrorKind.TIMEOUT));
        assertEquals(2, a.getTotalCount(), "an input's histogram is not changed");

        assertSame(first, DrainResult.plus(null, first));
        assertSame(first, DrainResult.plus(first, null));
        assertNull(DrainResult.plus(null, null));
    }
}
