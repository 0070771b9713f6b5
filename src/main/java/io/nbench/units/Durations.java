package io.nbench.units;

import java.time.Duration;
import java.util.Locale;

/** Durations as users write them: {@code 250us}, {@code 10ms}, {@code 2s}, {@code 1m}, {@code 1h}, {@code 500ns}. */
public final class Durations {

    private Durations() {
    }

    /** Parses a duration; throws {@link IllegalArgumentException} with a one-line reason. */
    public static Duration parse(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        int i = 0;
        while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.')) {
            i++;
        }
        String number = s.substring(0, i);
        String unit = s.substring(i).trim();
        double value;
        try {
            value = Double.parseDouble(number);
        } catch (NumberFormatException e) {
            throw bad(text);
        }
        long nanosPerUnit = switch (unit) {
            case "ns" -> 1L;
            case "us", "µs" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "s", "" -> 1_000_000_000L;
            case "m", "min" -> 60_000_000_000L;
            case "h" -> 3_600_000_000_000L;
            default -> throw bad(text);
        };
        if (unit.isEmpty() && value != 0) {
            throw new IllegalArgumentException("'" + text + "' needs a unit: e.g. 250us, 10ms, 2s, 1m");
        }
        double nanos = value * nanosPerUnit;
        if (nanos > Long.MAX_VALUE / 2) {
            throw new IllegalArgumentException("'" + text + "' is too long a duration");
        }
        return Duration.ofNanos(Math.round(nanos));
    }

    private static IllegalArgumentException bad(String text) {
        return new IllegalArgumentException("'" + text + "' is not a duration: use e.g. 250us, 10ms, 2s, 1m");
    }

    /** Short human form: 250 µs, 10 ms, 2 s, 1.5 s, 2 min. */
    public static String format(Duration d) {
        long n = d.toNanos();
        if (n >= 60_000_000_000L && n % 60_000_000_000L == 0) {
            return n / 60_000_000_000L + " min";
        }
        if (n >= 1_000_000_000L) {
            return trim(n / 1e9) + " s";
        }
        if (n >= 1_000_000L) {
            return trim(n / 1e6) + " ms";
        }
        if (n >= 1_000L) {
            return trim(n / 1e3) + " µs";
        }
        return n + " ns";
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.3f", v).replaceAll("0+$", "");
    }
}
