package io.nbench.load;

import java.util.function.LongSupplier;

/**
 * The open-loop pacing of one sender over its connections, apart from any thread or real clock so that
 * tests can drive it exactly: {@link #sendDue} sends every message whose intended time has come (all of
 * them at once when the sender is behind: catch-up keeps each message's intended time), and says when
 * the next one is due so the sender can sleep until then instead of spinning.
 */
final class Pacer {

    /** What the pacer drives: a connection that may or may not have room for another message. */
    interface Target {
        /** Takes room for one more message in flight; false when {@code --max-inflight} is reached. */
        boolean tryAcquire();

        /** Sends one message meant to go at {@code intendedNanos}. */
        void send(long intendedNanos);

        /** True when the connection can take no more messages (closed). */
        boolean dead();
    }

    private final Target[] targets;
    private final OpenLoopSchedule[] schedules;
    private final long[] quota;
    private final LongSupplier clock;
    private final boolean[] waitingCounted;
    private volatile long maxInflightHits;
    private volatile long sent;

    /**
     * @param quota messages each target may still send ({@link Long#MAX_VALUE} for time-based runs)
     */
    Pacer(Target[] targets, OpenLoopSchedule[] schedules, long[] quota, LongSupplier clock) {
        this.targets = targets;
        this.schedules = schedules;
        this.quota = quota;
        this.clock = clock;
        this.waitingCounted = new boolean[targets.length];
    }

    /**
     * Sends everything due now. Returns the intended time of the earliest message still to send, or
     * {@link Long#MAX_VALUE} when every quota is spent or every target is dead; a result not after the
     * current time means a due message is waiting for room in flight.
     */
    long sendDue() {
        long now = clock.getAsLong();
        long earliest = Long.MAX_VALUE;
        for (int i = 0; i < targets.length; i++) {
            Target t = targets[i];
            OpenLoopSchedule s = schedules[i];
            while (quota[i] > 0 && !t.dead() && s.due(now)) {
                if (!t.tryAcquire()) {
                    if (!waitingCounted[i]) {
                        waitingCounted[i] = true; // count each message that waits, once
                        maxInflightHits++;
                    }
                    break;
                }
                waitingCounted[i] = false;
                t.send(s.take());
                quota[i]--;
                sent++;
            }
            if (quota[i] > 0 && !t.dead()) {
                earliest = Math.min(earliest, s.nextIntended());
            }
        }
        return earliest;
    }

    /** Messages that found their connection at {@code --max-inflight} and had to wait. */
    long maxInflightHits() {
        return maxInflightHits;
    }

    /** Messages sent so far. */
    long sent() {
        return sent;
    }
}
