package io.nbench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.nbench.capacity.Capacity;
import io.nbench.capacity.StepResult;
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

    /** The client's limit: "at least", what limited it (the most cap waits, the highest send lag p99 there). */
    @Test
    void aClientLimitedAnswerIsALowerBoundNamingTheClientsLimit() {
        List<Capacity.Step> steps = List.of(
                new Capacity.Step(new StepResult(179_010, 179_010, 179_010, true, false), true),
                new Capacity.Step(new StepResult(223_762, 190_000, 190_000, true, false, 5_076, 2_500_000, false),
                        null),
                new Capacity.Step(new StepResult(223_762, 185_000, 185_000, true, false, 4_000, 3_100_000, false),
                        false));
        Capacity c = new Capacity("p99<=5s", 0.02, 3_000, Capacity.Outcome.CLIENT_LIMITED, 179_010, Double.NaN,
                223_762, steps);
        assertEquals("capacity: at least 179,010 requests/s within p99<=5s (limited by the client: 5,076 "
                + "in-flight-cap waits, send lag p99 3,100 µs at 223,762/s (in-flight cap hit); the server's limit "
                + "was not reached)", CapacityTable.answer(c));
    }

    /** Unstable: when the answer passed, when it failed measured again, and what it answered then. */
    @Test
    void anUnstableAnswerSaysWhenItPassedAndWhenItFailed() {
        List<Capacity.Step> steps = List.of(
                new Capacity.Step(new StepResult(423, 423, 423, true, false), true, 5_000_000_000L, false),
                new Capacity.Step(new StepResult(529, 529, 92, false, false), false, 20_000_000_000L, false),
                new Capacity.Step(new StepResult(423, 423, 52, false, false), false, 100_000_000_000L, true));
        Capacity c = new Capacity("p99<=10ms", 0.02, 3_000, Capacity.Outcome.UNSTABLE, 423, 529, steps);
        assertEquals("capacity: unstable within p99<=10ms: the server's capacity changed during the search: 423/s "
                + "passed at 0:05 and failed at 1:40, answered 52.0/s", CapacityTable.answer(c));
        // Failed again for the machine's cause (steal): not confirmed, no claim that the server changed.
        List<Capacity.Step> disturbed = List.of(steps.get(0), steps.get(1), new Capacity.Step(
                new StepResult(423, 423, 371, false, false, 0, 0, true), false, 100_000_000_000L, true));
        Capacity m = new Capacity("p99<=10ms", 0.02, 3_000, Capacity.Outcome.UNSTABLE, 423, 529, disturbed);
        assertEquals("capacity: unstable within p99<=10ms: the answer could not be confirmed: 423/s passed at 0:05 "
                + "and failed again at 1:40 (machine disturbed), answered 371/s; run again on a quiet machine",
                CapacityTable.answer(m));
    }
}
