package io.nbench.stats;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/** The percentiles a run reports ({@code --percentiles}), and how they are read from a histogram. */
public final class Percentiles {

    public static final List<Double> DEFAULT = List.of(25.0, 50.0, 75.0, 90.0, 95.0, 99.0, 99.9, 100.0);

    private Percentiles() {
    }

    /**
     * The value at percentile {@code p} in ns: HdrHistogram's value at percentile (the highest value
     * equivalent to the recorded one, so never understated), except that 100 is the true maximum and an
     * empty histogram gives 0.
     */
    public static long valueAt(Histogram h, double p) {
        if (h.getTotalCount() == 0) {
            return 0;
        }
        if (p >= 100.0) {
            return h.getMaxValue();
        }
        return h.getValueAtPercentile(p);
    }

    /** Parses {@code 25,50,99.9,100}; each must be in (0, 100]. */
    public static List<Double> parse(String text) {
        List<Double> list = new ArrayList<>();
        for (String part : text.split(",")) {
            String s = part.trim();
            if (s.startsWith("p")) {
                s = s.substring(1);
            }
            double p;
            try {
                p = Double.parseDouble(s);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + part + "' is not a percentile: use numbers such as 50,99,99.9");
            }
            if (!(p > 0 && p <= 100)) {
                throw new IllegalArgumentException("percentile " + part + " is out of range: use values in (0, 100]");
            }
            list.add(p);
        }
        return List.copyOf(list);
    }

    /** Label as printed: {@code p50}, {@code p99.9}, {@code p100}. */
    public static String label(double p) {
        if (p == Math.rint(p)) {
            return "p" + (long) p;
        }
        return "p" + String.format(Locale.ROOT, "%s", stripZeros(p));
    }

    private static String stripZeros(double p) {
        String s = Double.toString(p);
        return s.contains("E") ? String.format(Locale.ROOT, "%.6f", p).replaceAll("0+$", "") : s;
    }
}
