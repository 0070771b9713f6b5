package io.nbench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@code --pacer hybrid}'s lead: learned from the pacer's own wake-ups, used only where the spin stays small. */
class WakeUpLeadTest {

    static final long US = 1_000L;

    @Test
    void beforeAnyWakeUpItParksAllButTheMargin() {
        WakeUpLead lead = new WakeUpLead(1);
        assertEquals(1_000 * US - WakeUpLead.MARGIN_NANOS, lead.parkFor(5_000 * US, 4_000 * US));
        assertTrue(lead.spinsUntil(5_000 * US), "the rest of the wait is spun");
        assertFalse(lead.spinsUntil(5_001 * US), "only until the message it woke early for");
    }

    @Test
    void learnsTheMeanLatenessAndParksThatMuchAndHalfAgainEarly() {
        WakeUpLead lead = new WakeUpLead(1);
        for (int i = 0; i < 200; i++) {
            lead.woke(900 * US, 1_000 * US); // every park 100 µs late
        }
        assertEquals(100 * US, lead.meanOvershoot(), 1 * US);
        long parked = lead.parkFor(1_000 * US, 0);
        // lead = mean + mean / 2 + margin = 160 µs
        assertEquals(1_000 * US - 160 * US, parked, 2 * US);
        assertTrue(lead.spinsUntil(1_000 * US));
    }

    @Test
    void parksTheWholeWaitWhenTheSpinWouldBeALargeShareOfIt() {
        WakeUpLead lead = new WakeUpLead(1);
        for (int i = 0; i < 200; i++) {
            lead.woke(0, 100 * US);
        }
        // The spin left after a wake-up of mean lateness is mean / 2 + margin = 60 µs: at most 1/4 of the wait,
        // so waits under 240 µs are parked whole, as --pacer sleep does.
        assertEquals(200 * US, lead.parkFor(200 * US, 0));
        assertFalse(lead.spinsUntil(200 * US), "a whole park leaves nothing to spin");
        assertEquals(250 * US - 160 * US, lead.parkFor(250 * US, 0), 2 * US);
    }

    @Test
    void manyPacersTogetherSpinNoMoreThanOne() {
        WakeUpLead lead = new WakeUpLead(50);
        for (int i = 0; i < 200; i++) {
            lead.woke(0, 100 * US);
        }
        // 60 µs of spin per message is allowed once per 4 x 50 x 60 µs = 12 ms of wait.
        assertEquals(11_000 * US, lead.parkFor(11_000 * US, 0));
        assertEquals(13_000 * US - 160 * US, lead.parkFor(13_000 * US, 0), 2 * US);
    }

    @Test
    void aParkCutShortTeachesNothingAndOneLongStallTeachesLittle() {
        WakeUpLead lead = new WakeUpLead(1);
        lead.woke(1_000 * US, 10 * US); // unparked early
        assertEquals(0, lead.meanOvershoot());
        lead.woke(0, 2_000_000 * US); // a 2 s stall: counted as the cap, weighted 1/8
        assertEquals(WakeUpLead.CAP_NANOS / 8, lead.meanOvershoot());
    }
}
