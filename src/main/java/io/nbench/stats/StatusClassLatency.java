package io.nbench.stats;

import java.util.Arrays;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * HTTP: the latency of the responses of each status class, 2xx to 5xx (every response is timed, whatever its
 * status; the overall latency is all of them together). An error page is other work than the answer being
 * benchmarked, often much faster: the classes show which figure is which.
 */
public final class StatusClassLatency {

    /** The classes, in the order of {@link #get}. */
    public static final List<String> LABELS = List.of("2xx", "3xx", "4xx", "5xx");

    private final Histogram[] byClass;

    /** Empty histograms, one per class. */
    public StatusClassLatency() {
        byClass = new Histogram[LABELS.size()];
        for (int i = 0; i < byClass.length; i++) {
            byClass[i] = LatencyHistograms.newHistogram();
        }
    }

    /** {@code histograms} in the order of {@link #LABELS}. */
    public StatusClassLatency(Histogram[] histograms) {
        if (histograms.length != LABELS.size()) {
            throw new IllegalArgumentException("one histogram per status class, 2xx to 5xx");
        }
        byClass = histograms.clone();
    }

    /** The histograms, one per class (2xx first): to add into. */
    public Histogram[] histograms() {
        return byClass;
    }

    /** The class at {@code index} of {@link #LABELS}. */
    public Histogram get(int index) {
        return byClass[index];
    }

    /** The class labelled {@code label} (2xx...), or null for another label. */
    public Histogram get(String label) {
        int i = LABELS.indexOf(label);
        return i < 0 ? null : byClass[i];
    }

    /** Adds {@code other}'s classes into this one's (merging iterations or documents). */
    public void add(StatusClassLatency other) {
        for (int i = 0; i < byClass.length; i++) {
            byClass[i].add(other.byClass[i]);
        }
    }

    /** The sum of several (null ones skipped), or null when all are null (no HTTP). */
    public static StatusClassLatency sum(Iterable<StatusClassLatency> parts) {
        StatusClassLatency total = null;
        for (StatusClassLatency p : parts) {
            if (p != null) {
                if (total == null) {
                    total = new StatusClassLatency();
                }
                total.add(p);
            }
        }
        return total;
    }

    @Override
    public String toString() {
        return Arrays.toString(Arrays.stream(byClass).mapToLong(Histogram::getTotalCount).toArray());
    }
}
