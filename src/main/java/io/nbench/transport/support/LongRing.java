package io.nbench.transport.support;

/**
 * A growable FIFO of longs (message ids, offsets) for transports, not thread-safe: guarded by its
 * owner. It grows (rarely, to the largest backlog seen) and never shrinks, so steady-state use does
 * not allocate.
 */
public final class LongRing {

    private long[] items = new long[16];
    private int head;
    private int size;

    public boolean isEmpty() {
        return size == 0;
    }

    public int size() {
        return size;
    }

    public void add(long value) {
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

    public long peek() {
        return items[head];
    }

    public long poll() {
        long v = items[head];
        head = (head + 1) & (items.length - 1);
        size--;
        return v;
    }

    public void clear() {
        head = 0;
        size = 0;
    }
}
