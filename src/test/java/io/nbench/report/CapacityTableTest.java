package io.nbench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.nbench.capacity.Capacity;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The answer line: the rate that passed, the bracket it lies in, and what cut the search short. */
class CapacityTableTest {

    private static Capacity capacity(Capacity.Outcome outcome, double passed, double failed) {
        return new Capacity("p99<=10ms", 0.02, 3_000, outcome, passed, failed, List.of());
    }

    @Test
    void theAnswerIsThePassingEndOfItsBracket() {
        assertEquals("capacity: 3,540 requests/s within p99<=10ms [between 3,540 passed and 3,610 failed]",
                CapacityTable.answer(capacity(Capacity.Outcome.FOUND, 3_540, 3_610)));
    }

    @Test
    void aSearchCutShortSaysSoAndHowWideItsBracketIs() {
        assertEquals("capacity: 3,000 requests/s within p99<=10ms [between 3,000 passed and 3,750 failed] "
                + "(stopped by --max-time at 25% wide, not 2%)",
                CapacityTable.answer(capacity(Capacity.Outcome.STOPPED, 3_000, 3_750)));
        assertEquals("capacity: at least 3,000 requests/s within p99<=10ms [passed at 3,000, no higher rate tried] "
                + "(interrupted)", CapacityTable.answer(capacity(Capacity.Outcome.INTERRUPTED, 3_000, Double.NaN)));
    }

    @Test
    void noRatePassingIsNotFoundAndNamesTheLowestTried() {
        assertEquals("capacity: not found: no rate tried met p99<=10ms (the lowest tried, 333 requests/s, failed)",
                CapacityTable.answer(capacity(Capacity.Outcome.NONE_PASSED, Double.NaN, 333)));
        assertEquals("capacity: not found: no rate tried met p99<=10ms (the lowest tried, 37.5 requests/s, "
                + "failed)", CapacityTable.answer(capacity(Capacity.Outcome.NONE_PASSED, Double.NaN, 37.5)));
    }
}
