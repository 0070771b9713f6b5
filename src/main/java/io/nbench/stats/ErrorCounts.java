package io.nbench.stats;

import io.nbench.transport.ErrorKind;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Errors by class. Errors are rare events, so a {@link LongAdder} per class (lock-free, allocation only
 * on first contention) is cheap enough; snapshots give per-iteration differences.
 */
public final class ErrorCounts {

    private final LongAdder[] counters = new LongAdder[ErrorKind.values().length];

    public ErrorCounts() {
        for (int i = 0; i < counters.length; i++) {
            counters[i] = new LongAdder();
        }
    }

    public void add(ErrorKind kind) {
        counters[kind.ordinal()].increment();
    }

    public Snapshot snapshot() {
        long[] values = new long[counters.length];
        for (int i = 0; i < values.length; i++) {
            values[i] = counters[i].sum();
        }
        return new Snapshot(values);
    }

    /** Counts at one moment, by class. */
    public record Snapshot(long[] values) {

        public static final Snapshot ZERO = new Snapshot(new long[ErrorKind.values().length]);

        public long get(ErrorKind kind) {
            return values[kind.ordinal()];
        }

        public long total() {
            long sum = 0;
            for (long v : values) {
                sum += v;
            }
            return sum;
        }

        public Snapshot minus(Snapshot earlier) {
            long[] d = new long[values.length];
            for (int i = 0; i < d.length; i++) {
                d[i] = values[i] - earlier.values[i];
            }
            return new Snapshot(d);
        }

        public Snapshot plus(Snapshot other) {
            long[] d = new long[values.length];
            for (int i = 0; i < d.length; i++) {
                d[i] = values[i] + other.values[i];
            }
            return new Snapshot(d);
        }

        /** Non-zero classes, e.g. {@code {timeout=3, read=1}}, in a stable order. */
        public Map<ErrorKind, Long> nonZero() {
            Map<ErrorKind, Long> map = new EnumMap<>(ErrorKind.class);
            for (ErrorKind k : ErrorKind.values()) {
                if (values[k.ordinal()] != 0) {
                    map.put(k, values[k.ordinal()]);
                }
            }
            return map;
        }
    }
}
