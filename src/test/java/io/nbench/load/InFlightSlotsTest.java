package io.nbench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The in-flight slot protocol: claim, publish, complete once, timeout, and a late response discarded. */
class InFlightSlotsTest {

    @Test
    void holdsAtLeastTwiceTheWindowAsAPowerOfTwo() {
        assertEquals(4, new InFlightSlots(1, false, false, false).capacity());
        assertEquals(8, new InFlightSlots(3, false, false, false).capacity());
        assertEquals(8, new InFlightSlots(4, false, false, false).capacity());
        assertEquals(16, new InFlightSlots(5, false, false, false).capacity());
    }

    @Test
    void aClaimedSlotMatchesNoIdUntilPublishedThenCompletesOnce() {
        InFlightSlots slots = new InFlightSlots(4, false, false, false);
        int slot = slots.claim(1);
        long id = slots.id(1, slot);
        assertEquals(slot, (int) (id & slots.mask), "the id carries its slot in its low bits");
        assertEquals(InFlightSlots.CLAIMED, slots.idAt(slot));
        assertFalse(slots.release(slot, id), "a response before the publish must not complete the message");

        slots.start[slot] = 1234;
        slots.publish(slot, id);
        assertEquals(id, slots.idAt(slot));
        assertEquals(1234, slots.start[slot]);
        assertTrue(slots.release(slot, id), "the response completes the message");
        assertFalse(slots.release(slot, id), "the write event or the watchdog coming second does not count it again");
        assertEquals(InFlightSlots.FREE, slots.idAt(slot));
    }

    @Test
    void aClaimSkipsBusySlotsAndFailsOnlyWhenAllAreBusy() {
        InFlightSlots slots = new InFlightSlots(2, false, false, false);
        Set<Integer> claimed = new HashSet<>();
        for (int seq = 1; seq <= slots.capacity(); seq++) {
            int slot = slots.claim(0); // every claim starts at slot 0: the busy ones are skipped
            assertTrue(slot >= 0 && claimed.add(slot), "a free slot, not one already held: " + slot);
            slots.publish(slot, slots.id(seq, slot));
        }
        assertEquals(-1, slots.claim(0), "no free slot: more messages in flight than the window allows");
    }

    @Test
    void aResponseAfterItsTimeoutIsDiscardedEvenWhenTheSlotWasReused() {
        InFlightSlots slots = new InFlightSlots(1, false, false, false);
        int slot = slots.claim(1);
        long timedOut = slots.id(1, slot);
        slots.publish(slot, timedOut);

        assertTrue(slots.release(slot, timedOut), "the watchdog times the message out");
        assertFalse(slots.release(slot, timedOut), "its response, arriving late, finds the slot free");

        int again = slots.claim(3); // the next message may land in the same slot
        long next = slots.id(3, again);
        slots.publish(again, next);
        assertNotEquals(timedOut, next, "a reused slot gets a new id");
        int lateSlot = (int) (timedOut & slots.mask);
        assertNotEquals(timedOut, slots.idAt(lateSlot), "the late response matches nothing in flight");
        assertFalse(slots.release(lateSlot, timedOut), "and cannot complete the message now in its slot");
        assertEquals(next, slots.idAt(again), "which is still in flight");
        assertTrue(slots.release(again, next));
    }

    @Test
    void whenTheResponseAndTheWatchdogRaceExactlyOneCompletesEachMessage() throws Exception {
        InFlightSlots slots = new InFlightSlots(8, false, false, false);
        int messages = 200; // each race costs a thread start; a few hundred are enough to catch a double count
        AtomicInteger wins = new AtomicInteger();
        for (int seq = 1; seq <= messages; seq++) {
            int slot = slots.claim(seq);
            long id = slots.id(seq, slot);
            slots.publish(slot, id);
            CountDownLatch go = new CountDownLatch(1);
            Thread watchdog = new Thread(() -> {
                awaitQuietly(go);
                if (slots.release(slot, id)) {
                    wins.incrementAndGet();
                }
            });
            watchdog.start();
            go.countDown();
            if (slots.release(slot, id)) {
                wins.incrementAndGet();
            }
            watchdog.join(10_000);
            assertEquals(seq, wins.get(), "message " + seq + " completed exactly once");
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
