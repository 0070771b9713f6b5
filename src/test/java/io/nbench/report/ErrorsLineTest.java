package io.nbench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.nbench.protocol.SuccessStatuses;
import io.nbench.stats.ErrorCounts;
import io.nbench.transport.ErrorKind;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The errors as the text output and the iteration lines print them: counts grouped by thousands, as every count. */
class ErrorsLineTest {

    @Test
    void countsAreGroupedByThousandsAsEveryOtherCount() {
        long[] values = new long[ErrorKind.values().length];
        values[ErrorKind.TIMEOUT.ordinal()] = 1_234;
        values[ErrorKind.STATUS.ordinal()] = 25_728;
        ErrorCounts.Snapshot errors = new ErrorCounts.Snapshot(values, Map.of(200, 3_000L, 503, 25_728L));
        assertEquals("26,962 (timeout=1,234 status 503 x25,728)", TextReport.errors(errors, SuccessStatuses.DEFAULT));
    }

    @Test
    void statusesCountedAsSuccessAreNotListed() {
        long[] values = new long[ErrorKind.values().length];
        values[ErrorKind.STATUS.ordinal()] = 2_000;
        ErrorCounts.Snapshot errors = new ErrorCounts.Snapshot(values, Map.of(301, 1_000L, 404, 2_000L));
        assertEquals("2,000 (status 404 x2,000)",
                TextReport.errors(errors, SuccessStatuses.parse("2xx,3xx")));
    }
}
