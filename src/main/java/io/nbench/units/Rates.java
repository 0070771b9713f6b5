package io.nbench.units;

import java.util.Locale;

/** Rates in messages per second as users write them: {@code 500}, {@code 50k}, {@code 1.5m} (decimal: k = 1000). */
public final class Rates {

    private Rates() {
    }

    public static double parse(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        if (s.endsWith("/s")) {
            s = s.substring(0, s.length() - 2);
        }
        double unit = 1;
        if (s.endsWith("k")) {
            unit = 1e3;
        } else if (s.endsWith("m")) {
            unit = 1e6;
        }
        if (unit != 1) {
            s = s.substring(0, s.length() - 1);
        }
        double v;
        try {
            v = Double.parseDouble(s) * unit;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not a rate: use messages per second, e.g. 500, 50k, 1.5m");
        }
        if (!(v > 0) || Double.isInfinite(v)) {
            throw new IllegalArgumentException("rate '" + text + "' must be positive");
        }
        return v;
    }
}
