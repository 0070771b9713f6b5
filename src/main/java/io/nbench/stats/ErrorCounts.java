package io.nbench.stats;

import io.nbench.transport.ErrorKind;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Errors by class. Errors are rare events, so a {@link LongAdder} per class (lock-free, allocation only
 * on first contention) is cheap enough; snapshots give per-iteration differences. The responses by HTTP
 * status code are counted here too, so that every snapshot (iteration, one-second slice, drain) holds the
 * statuses of the same instant as the error classes, and a {@code status} error is always beside its code.
 */
public final class ErrorCounts {

    private final LongAdder[] counters = new LongAdder[ErrorKind.values().length];
    private final StatusCounts statuses = new StatusCounts();

    public ErrorCounts() {
        for (int i = 0; i < counters.length; i++) {
            counters[i] = new LongAdder();
        }
    }

    public void add(ErrorKind kind) {
        counters[kind.ordinal()].increment();
    }

    /** Responses by status code (HTTP), counted with the errors. */
    public StatusCounts statuses() {
        return statuses;
    }

    public Snapshot snapshot() {
        long[] values = new long[counters.length];
        for (int i = 0; i < values.length; i++) {
            values[i] = counters[i].sum();
        }
        return new Snapshot(values, statuses.snapshot());
    }

    /**
     * Counts at one moment, by class, and the responses by status code (only the codes seen, in order;
     * empty for protocols whose responses carry no status).
     */
    public record Snapshot(long[] values, Map<Integer, Long> statuses) {

        public static final Snapshot ZERO = new Snapshot(new long[ErrorKind.values().length]);

        public Snapshot {
            statuses = Collections.unmodifiableMap(new TreeMap<>(statuses));
        }

        /** Counts by class with no status code. */
        public Snapshot(long[] values) {
            this(values, Map.of());
        }

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
            Map<Integer, Long> codes = new TreeMap<>(statuses);
            earlier.statuses.forEach((code, n) -> codes.merge(code, -n, Long::sum));
            codes.values().removeIf(n -> n == 0); // a code seen only before: none in between
            return new Snapshot(d, codes);
        }

        public Snapshot plus(Snapshot other) {
            long[] d = new long[values.length];
            for (int i = 0; i < d.length; i++) {
                d[i] = values[i] + other.values[i];
            }
            Map<Integer, Long> codes = new TreeMap<>(statuses);
            other.statuses.forEach((code, n) -> codes.merge(code, n, Long::sum));
            return new Snapshot(d, codes);
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
