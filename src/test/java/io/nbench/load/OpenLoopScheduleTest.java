package io.nbench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * The open-loop rate exactly, on an injected clock: what {@code OpenLoopTest.aModestRateIsHeld} can only
 * bound loosely on a real, noisy machine.
 */
class OpenLoopScheduleTest {

    private static final long MS = 1_000_000L;

    private long now;

    @Test
    void aRateMustBePositive() {
        assertThrows(IllegalArgumentException.class, () -> new OpenLoopSchedule(0, 0));
        assertThrows(IllegalArgumentException.class, () -> new OpenLoopSchedule(0, -1));
        assertThrows(IllegalArgumentException.class, () -> new OpenLoopSchedule(0, Double.NaN));
        assertEquals(1_000_000_000_000L, new OpenLoopSchedule(0, 0.001).intended(1), "a very low rate is a rate");
    }

    @Test
    void takesInOrderAndCounts() {
        OpenLoopSchedule s = new OpenLoopSchedule(500, 1000.0);
        assertEquals(0, s.taken());
        assertEquals(500, s.nextIntended());
        assertEquals(500, s.take());
        assertEquals(500 + MS, s.take());
        assertEquals(2, s.taken());
        assertEquals(500 + 2 * MS, s.nextIntended());
        assertEquals(false, s.due(500 + 2 * MS - 1));
        assertEquals(true, s.due(500 + 2 * MS));
    }

    /**
     * 600 messages at 2000/s over 2 connections with the pacer thread's spread (connection c starts c / rate
     * later): the last is due at 299.5 ms, and at every instant exactly the messages due have been sent.
     */
    @Test
    void twoThousandPerSecondOverTwoConnectionsIsExact() {
        PacerTest.Recording a = new PacerTest.Recording();
        PacerTest.Recording b = new PacerTest.Recording();
        OpenLoopSchedule[] schedules = {new OpenLoopSchedule(0, 1000.0), new OpenLoopSchedule(MS / 2, 1000.0)};
        Pacer p = new Pacer(new PacerTest.Recording[] {a, b}, schedules, new long[] {300, 300}, () -> now);
        for (now = 0; now < 299 * MS + MS / 2; now += MS / 4) {
            p.sendDue();
            long expected = now / (MS / 2) + 1; // one message every 0.5 ms from t = 0
            assertEquals(expected, p.sent(), "at " + now + " ns");
        }
        now = 299 * MS + MS / 2 - 1;
        p.sendDue();
        assertEquals(599, p.sent());
        now = 299 * MS + MS / 2;
        assertEquals(Long.MAX_VALUE, p.sendDue(), "every quota spent");
        assertEquals(600, p.sent());
        assertEquals(300, a.sent.size());
        assertEquals(299 * MS + MS / 2, (long) b.sent.get(299));
    }
}
