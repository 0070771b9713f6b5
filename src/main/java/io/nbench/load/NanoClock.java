package io.nbench.load;

import java.util.concurrent.locks.LockSupport;

/**
 * The engine's time: every timestamp a run takes (iteration boundaries, intended and actual send times,
 * completions, timeouts) and every wait for a moment in time goes through one clock, so that a test can
 * move time by hand and check counts exactly. A run uses {@link #SYSTEM}.
 */
interface NanoClock {

    /** Now, on the {@link System#nanoTime()} scale. */
    long nanoTime();

    /**
     * Waits until about {@code nanos} from now have passed, or less: every caller re-checks its condition
     * and waits again (an unpark, an abort or a hand-moved clock end the wait early).
     */
    void park(Object blocker, long nanos);

    NanoClock SYSTEM = new NanoClock() {
        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public void park(Object blocker, long nanos) {
            LockSupport.parkNanos(blocker, nanos);
        }
    };
}
