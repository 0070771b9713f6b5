package io.nbench.load;

/**
 * When each message of one connection is meant to be sent in the open loop: message k at
 * {@code start + k * interval}, computed from k (never by adding intervals, so rounding never drifts).
 * The schedule never moves because the sender fell behind: a late message keeps its intended time, which
 * is what lets latency be measured from it (the coordinated-omission correction).
 */
final class OpenLoopSchedule {

    private final long start;
    private final double intervalNanos;
    private long next;

    /**
     * @param start         intended time of message 0 (a System.nanoTime value)
     * @param ratePerSecond this connection's messages per second
     */
    OpenLoopSchedule(long start, double ratePerSecond) {
        if (!(ratePerSecond > 0)) {
            throw new IllegalArgumentException("rate must be positive");
        }
        this.start = start;
        this.intervalNanos = 1e9 / ratePerSecond;
    }

    /** Intended time of message k. */
    long intended(long k) {
        return start + (long) (k * intervalNanos);
    }

    /** Intended time of the next message not yet taken. */
    long nextIntended() {
        return intended(next);
    }

    boolean due(long now) {
        return nextIntended() <= now;
    }

    /** Takes the next message: returns its intended time and advances. */
    long take() {
        return intended(next++);
    }

    /** Messages taken so far. */
    long taken() {
        return next;
    }
}
