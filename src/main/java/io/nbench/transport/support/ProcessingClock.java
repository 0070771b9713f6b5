package io.nbench.transport.support;

import io.nbench.transport.ServerEvents;

/**
 * The processing time of requests answered on their I/O thread, for one connection and owned by its I/O
 * thread (no lock). The transport calls {@link #decoded} when a request's frame is complete and
 * {@link #written} when the responses of its read batch have been handed on (the flush after the batch);
 * this clock takes the timestamps, so every transport measures the same span and none reads the clock
 * itself. Timing the batch at its flush rather than each response costs one clock read per request and
 * one per batch, and no allocation: the decode times wait in an array that grows to the largest batch
 * seen and is reused.
 */
public final class ProcessingClock {

    private final ServerEvents events;
    private long[] decoded = new long[16];
    private int count;

    public ProcessingClock(ServerEvents events) {
        this.events = events;
    }

    /** A request's frame was decoded (its last byte consumed). */
    public void decoded() {
        if (count == decoded.length) {
            decoded = java.util.Arrays.copyOf(decoded, count * 2);
        }
        decoded[count++] = System.nanoTime();
    }

    /** The responses of every request decoded since the last call were handed on: report their time. */
    public void written() {
        if (count == 0) {
            return;
        }
        long now = System.nanoTime();
        for (int i = 0; i < count; i++) {
            events.processed(now - decoded[i]);
        }
        count = 0;
    }
}
