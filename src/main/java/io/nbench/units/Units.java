package io.nbench.units;

import java.util.Locale;

/** Number formats of the text output: latency in µs, counts with thousands separators. */
public final class Units {

    private Units() {
    }

    /** Nanoseconds as µs: one decimal below 100 µs, whole numbers with separators above. */
    public static String micros(double nanos) {
        double us = nanos / 1000.0;
        if (us < 100) {
            return String.format(Locale.ROOT, "%.1f", us);
        }
        return String.format(Locale.ROOT, "%,d", Math.round(us));
    }

    public static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    public static String rate(double perSecond) {
        return String.format(Locale.ROOT, "%,d", Math.round(perSecond));
    }

    public static String mib(double mibPerSecond) {
        if (Double.isNaN(mibPerSecond)) {
            return "n/a"; // not counted: read from a document written before bytes were
        }
        return String.format(Locale.ROOT, "%,.1f", mibPerSecond);
    }

    /** A byte count that may be fractional (bytes per message): 0 B, 0.4 B, 87 B, 1.2 KiB. */
    public static String bytes(double b) {
        if (b < 10) {
            return String.format(Locale.ROOT, "%.1f B", b);
        }
        if (b < 1024) {
            return String.format(Locale.ROOT, "%d B", Math.round(b));
        }
        return String.format(Locale.ROOT, "%.1f KiB", b / 1024);
    }

    public static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.3f", nanos / 1e9);
    }
}
