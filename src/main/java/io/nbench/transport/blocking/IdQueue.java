package io.nbench.transport.blocking;

/**
 * Ids the reader thread could not write itself because another thread held the write lock (and may be
 * blocked in a write). Guarded by its own monitor, held only for a few instructions, never across I/O.
 * Used only on that contended path; it grows to the largest backlog seen and never shrinks.
 */
final class IdQueue {

    static final long NONE = Long.MIN_VALUE;

    private long[] items = new long[16];
    private int head;
    private volatile int size;

    boolean isEmpty() {
        return size == 0;
    }

    synchronized void add(long id) {
        if (size == items.length) {
            long[] bigger = new long[items.length * 2];
            for (int i = 0; i < size; i++) {
                bigger[i] = items[(head + i) & (items.length - 1)];
            }
            items = bigger;
            head = 0;
        }
        items[(head + size) & (items.length - 1)] = id;
        size = size + 1;
    }

    /** The oldest id, or {@link #NONE}. */
    synchronized long poll() {
        if (size == 0) {
            return NONE;
        }
        long id = items[head];
        head = (head + 1) & (items.length - 1);
        size = size - 1;
        return id;
    }
}
