package io.nbench.stats;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.PackedHistogram;

/**
 * The one place histogram ranges are decided, so every histogram nbench creates can be added to every
 * other. Values are nanoseconds from 1 ns to one hour at 3 significant digits (0.1 % resolution).
 */
public final class LatencyHistograms {

    /** The largest value recorded; larger values are clamped to it and counted. One hour in ns. */
    public static final long MAX_NANOS = 3_600_000_000_000L;
    public static final int SIGNIFICANT_DIGITS = 3;

    private LatencyHistograms() {
    }

    /**
     * A histogram of this range that grows beyond it when a larger one is added to it: sums of histograms read
     * back from result documents (compare, report --merge) may hold another range's values (a document of
     * another tool or version). What nbench records is clamped to {@link #MAX_NANOS} first, so it never grows.
     */
    public static Histogram newHistogram() {
        Histogram h = new Histogram(1, MAX_NANOS, SIGNIFICANT_DIGITS);
        h.setAutoResize(true);
        return h;
    }

    /**
     * HdrHistogram's packed histogram: about 10 KB instead of 270 KB, for about 10 ns more per value. For
     * runs with many recording threads (a thread per connection). It grows as values arrive, within the
     * same range as {@link #newHistogram}, so the two can be added to each other.
     */
    public static Histogram newPackedHistogram() {
        return new PackedHistogram(1, MAX_NANOS, SIGNIFICANT_DIGITS);
    }
}
