package io.nbench.transport.blocking;

import io.nbench.transport.support.LongRing;

/**
 * Ids the reader thread could not write itself because another thread held the write lock (and may be
 * blocked in a write). Guarded by its own monitor, held only for a few instructions, never across I/O.
 * Used only on that contended path; it grows to the largest backlog seen and never shrinks.
 */
final class IdQueue {

    static final long NONE = Long.MIN_VALUE;

    private final LongRing ring = new LongRing();
    /** Read without the monitor by whoever releases the write lock: is there anything to write? */
    private volatile int size;

    boolean isEmpty() {
        return size == 0;
    }

    synchronized void add(long id) {
        ring.add(id);
        size = ring.size();
    }

    /** The oldest id, or {@link #NONE}. */
    synchronized long poll() {
        if (ring.isEmpty()) {
            return NONE;
        }
        long id = ring.poll();
        size = ring.size();
        return id;
    }
}
