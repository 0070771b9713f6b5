package io.nbench.stats;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.transport.ErrorKind;
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
}
