package io.nbench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The open-loop schedule and catch-up, driven by an injected clock: exact, not timed. */
class PacerTest {

    static final long MS = 1_000_000L;

    /** A connection that records what it was asked to send and can be told it is full. */
    static final class Recording implements Pacer.Target {
        final List<Long> sent = new ArrayList<>();
        boolean full;
        boolean dead;

        @Override
        public boolean tryAcquire() {
            return !full;
        }

        @Override
        public void send(long intendedNanos) {
            sent.add(intendedNanos);
        }

        @Override
        public boolean dead() {
            return dead;
        }
    }

    private long now;

    private Pacer pacer(Recording[] targets, long[] quota, long... starts) {
        OpenLoopSchedule[] schedules = new OpenLoopSchedule[targets.length];
        for (int i = 0; i < targets.length; i++) {
            schedules[i] = new OpenLoopSchedule(starts[i], 1000.0); // one message per ms
        }
        return new Pacer(targets, schedules, quota, () -> now);
    }

    @Test
    void sendsOnScheduleAndSaysWhenTheNextIsDue() {
        Recording a = new Recording();
        Recording b = new Recording();
        Pacer p = pacer(new Recording[] {a, b}, new long[] {Long.MAX_VALUE, Long.MAX_VALUE}, 0, MS / 2);
        now = 0;
        assertEquals(MS / 2, p.sendDue());
        assertEquals(List.of(0L), a.sent);
        assertEquals(List.of(), b.sent);
        now = MS / 2;
        assertEquals(MS, p.sendDue());
        assertEquals(List.of(MS / 2), b.sent);
        now = MS / 2 + 1;
        assertEquals(MS, p.sendDue(), "nothing due: nothing sent");
        assertEquals(2, p.sent());
    }

    @Test
    void catchesUpKeepingEveryIntendedTime() {
        Recording a = new Recording();
        Recording b = new Recording();
        Pacer p = pacer(new Recording[] {a, b}, new long[] {Long.MAX_VALUE, Long.MAX_VALUE}, 0, MS / 2);
        now = 0;
        p.sendDue();
        now = 10 * MS; // the sender slept 10 ms: everything overdue goes now, with its own intended time
        assertEquals(10 * MS + MS / 2, p.sendDue());
        List<Long> expectedA = new ArrayList<>();
        for (long k = 0; k <= 10; k++) {
            expectedA.add(k * MS);
        }
        List<Long> expectedB = new ArrayList<>();
        for (long k = 0; k <= 9; k++) {
            expectedB.add(k * MS + MS / 2);
        }
        assertEquals(expectedA, a.sent);
        assertEquals(expectedB, b.sent);
    }

    @Test
    void rateIsExactOverLongSpansWithoutDrift() {
        OpenLoopSchedule s = new OpenLoopSchedule(0, 3.0); // 333,333,333.33 ns apart
        assertEquals(0, s.intended(0));
        assertEquals(333_333_333, s.intended(1));
        assertEquals(3_000_000_000L, s.intended(9));
        assertEquals(3_000_000_000_000L, s.intended(9000), "no accumulated rounding");
    }

    @Test
    void inFlightCapDelaysWithoutMovingTheSchedule() {
        Recording a = new Recording();
        Pacer p = pacer(new Recording[] {a}, new long[] {Long.MAX_VALUE}, 0);
        now = 0;
        p.sendDue();
        a.full = true;
        now = 5 * MS;
        assertEquals(Long.MAX_VALUE, p.sendDue(), "nothing due elsewhere");
        assertTrue(p.anyBlocked() && p.blocked(0), "the next message is overdue and waits for room");
        now = 6 * MS;
        p.sendDue();
        assertEquals(1, p.maxInflightHits(), "a waiting message is counted once, however often the pacer looks");
        a.full = false;
        p.sendDue();
        assertEquals(List.of(0L, MS, 2 * MS, 3 * MS, 4 * MS, 5 * MS, 6 * MS), a.sent);
    }

    @Test
    void aBlockedConnectionDoesNotHideTheOthersSchedule() {
        Recording a = new Recording();
        Recording b = new Recording();
        Pacer p = pacer(new Recording[] {a, b}, new long[] {Long.MAX_VALUE, Long.MAX_VALUE}, 0, MS / 2);
        a.full = true;
        now = MS / 4;
        assertEquals(MS / 2, p.sendDue(), "b's next message, not a's overdue one, says when to wake");
        assertTrue(p.blocked(0));
        assertFalse(p.blocked(1));
    }

    @Test
    void quotaEndsTheIterationAndDeadTargetsAreSkipped() {
        Recording a = new Recording();
        Recording b = new Recording();
        long[] quota = {3, Long.MAX_VALUE};
        Pacer p = pacer(new Recording[] {a, b}, quota, 0, 0);
        b.dead = true;
        now = 100 * MS;
        assertEquals(Long.MAX_VALUE, p.sendDue(), "quota spent and the other target dead: nothing more to do");
        assertFalse(p.anyBlocked());
        assertEquals(3, a.sent.size());
        assertEquals(0, b.sent.size());
    }
}
