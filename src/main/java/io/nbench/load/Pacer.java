package io.nbench.load;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
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
    private static final VarHandle SENT;
    private static final VarHandle HITS;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            SENT = l.findVarHandle(Pacer.class, "sent", long.class);
            HITS = l.findVarHandle(Pacer.class, "maxInflightHits", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Targets whose due message is waiting for room in flight (counted once each). */
    private final boolean[] blocked;
    private boolean anyBlocked;
    // Written by the pacer only, read by the coordinator at boundaries: opaque stores, no fence per message.
    private long maxInflightHits;
    private long sent;

    /**
     * @param quota messages each target may still send ({@link Long#MAX_VALUE} for time-based runs)
     */
    Pacer(Target[] targets, OpenLoopSchedule[] schedules, long[] quota, LongSupplier clock) {
        this.targets = targets;
        this.schedules = schedules;
        this.quota = quota;
        this.clock = clock;
        this.blocked = new boolean[targets.length];
    }

    /**
     * Sends everything due now. Returns the intended time of the earliest message still to send on a
     * target that is not {@linkplain #blocked(int) blocked}, or {@link Long#MAX_VALUE} when there is none;
     * {@link #anyBlocked()} then says whether a due message waits for room in flight (the pacer waits for
     * a permit) or every quota is spent and every target dead (the pacer is done).
     */
    long sendDue() {
        long now = clock.getAsLong();
        long earliest = Long.MAX_VALUE;
        anyBlocked = false;
        for (int i = 0; i < targets.length; i++) {
            Target t = targets[i];
            OpenLoopSchedule s = schedules[i];
            while (quota[i] > 0 && !t.dead() && s.due(now)) {
                if (!t.tryAcquire()) {
                    if (!blocked[i]) {
                        blocked[i] = true; // count each message that waits, once
                        HITS.setOpaque(this, maxInflightHits + 1);
                    }
                    break;
                }
                blocked[i] = false;
                // Counted before the hand-off: its response may complete on an I/O thread before send
                // returns, and a boundary cut must never see a message completed but not yet sent (the
                // send's own synchronization publishes this count before the response can exist).
                SENT.setOpaque(this, sent + 1);
                quota[i]--;
                t.send(s.take());
            }
            if (quota[i] > 0 && !t.dead()) {
                if (blocked[i]) {
                    anyBlocked = true;
                } else {
                    earliest = Math.min(earliest, s.nextIntended());
                }
            }
        }
        return earliest;
    }

    /** After {@link #sendDue}: whether target i has a due message waiting for room in flight. */
    boolean blocked(int i) {
        return blocked[i];
    }

    /** After {@link #sendDue}: whether any target has a due message waiting for room in flight. */
    boolean anyBlocked() {
        return anyBlocked;
    }

    /** Messages that found their connection at {@code --max-inflight} and had to wait. */
    long maxInflightHits() {
        return (long) HITS.getOpaque(this);
    }

    /** Messages sent so far. */
    long sent() {
        return (long) SENT.getOpaque(this);
    }
}
