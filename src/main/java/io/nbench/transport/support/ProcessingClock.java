package io.nbench.transport.support;

import io.nbench.transport.ServerEvents;
import java.util.Arrays;

/**
 * The processing time of requests answered on their I/O thread (or a transport's own executor thread), for
 * one connection and owned by that thread (no lock). {@link RequestPipeline} calls {@link #decoded} when a
 * request's frame is complete and {@link #written} when the responses of its read batch have been handed on
 * (the transport's flush after the batch); this clock takes the timestamps, so every transport measures the
 * same span and none reads the clock itself. Timing the batch at its flush rather than each response costs no allocation: the decode times
 * wait in an array that grows to the largest batch seen and is reused.
 *
 * <p>Without {@code --work} the requests of one read batch are decoded microseconds apart, all from bytes
 * that were already there, so they share the batch's first reading: one clock read per batch at decode
 * and one at the flush, not one per request (the later requests' share of the batch's parsing counts as
 * their wait, which it is). With work each request gets its own reading, since the work of the ones
 * before it is exactly the wait on the I/O thread that the figure must show.
 */
final class ProcessingClock {

    private final ServerEvents events;
    private final boolean eachRequest;
    private long[] decoded = new long[16];
    private int count;

    /** {@code eachRequest}: read the clock at every decode (requests do work), not once per batch. */
    ProcessingClock(ServerEvents events, boolean eachRequest) {
        this.events = events;
        this.eachRequest = eachRequest;
    }

    /** A request's frame was decoded (its last byte consumed). */
    void decoded() {
        if (count == decoded.length) {
            decoded = Arrays.copyOf(decoded, count * 2);
        }
        decoded[count] = eachRequest || count == 0 ? System.nanoTime() : decoded[count - 1];
        count++;
    }

    /** The responses of every request decoded since the last call were handed on: report their time. */
    void written() {
        written(count);
    }

    /** The responses of the first {@code n} requests not reported yet were handed on: report their time. */
    void written(int n) {
        n = Math.min(n, count);
        if (n == 0) {
            return;
        }
        long now = System.nanoTime();
        for (int i = 0; i < n; i++) {
            events.processed(now - decoded[i]);
        }
        count -= n;
        if (count > 0) {
            System.arraycopy(decoded, n, decoded, 0, count);
        }
    }
}
