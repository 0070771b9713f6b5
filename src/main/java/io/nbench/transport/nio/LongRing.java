package io.nbench.transport.nio;

/**
 * A growable FIFO of longs, guarded by its owner's lock. It grows (rarely, to the largest backlog
 * seen) and never shrinks, so steady-state use does not allocate.
 */
final class LongRing {

    private long[] items = new long[16];
    private int head;
    private int size;

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    void add(long value) {
        if (size == items.length) {
            long[] bigger = new long[items.length * 2];
            for (int i = 0; i < size; i++) {
                bigger[i] = items[(head + i) & (items.length - 1)];
            }
            items = bigger;
            head = 0;
        }
        items[(head + size) & (items.length - 1)] = value;
        size++;
    }

    long peek() {
        return items[head];
    }

    long poll() {
        long v = items[head];
        head = (head + 1) & (items.length - 1);
        size--;
        return v;
    }

    void clear() {
        head = 0;
        size = 0;
    }
}
