package io.nbench.units;

import java.util.Locale;

/** Byte sizes as users write them: {@code 512}, {@code 5k} (KiB), {@code 1m} (MiB), {@code 1g} (GiB). */
public final class Sizes {

    private Sizes() {
    }

    /** Parses a size; throws {@link IllegalArgumentException} with a one-line reason. */
    public static long parse(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        if (s.endsWith("ib")) {
            s = s.substring(0, s.length() - 2);
        } else if (s.endsWith("b")) {
            s = s.substring(0, s.length() - 1);
        }
        long unit = 1;
        if (!s.isEmpty()) {
            switch (s.charAt(s.length() - 1)) {
                case 'k' -> unit = 1024L;
                case 'm' -> unit = 1024L * 1024;
                case 'g' -> unit = 1024L * 1024 * 1024;
                default -> unit = 1;
            }
            if (unit != 1) {
                s = s.substring(0, s.length() - 1);
            }
        }
        if (s.isEmpty() || !s.chars().allMatch(Character::isDigit)) {
            throw new IllegalArgumentException("'" + text + "' is not a size: use bytes or a k/m/g suffix, e.g. 512, 5k, 1m");
        }
        // More than 12 digits would overflow Long.parseLong; and the value is compared before multiplying:
        // up to 12 digits times 1 GiB overflows a long (9999999999g wrapped to -1 GiB).
        if (s.length() > 12 || Long.parseLong(s) > Integer.MAX_VALUE / unit) {
            throw new IllegalArgumentException("'" + text + "' is too large: sizes must be below 2g");
        }
        return Long.parseLong(s) * unit;
    }

    /** Formats a byte count the way the output states sizes: 1 KiB, 5 KiB, 1.5 MiB, 100 B. */
    public static String format(long bytes) {
        if (bytes >= 1024L * 1024 && bytes % (1024L * 1024) == 0) {
            return bytes / (1024L * 1024) + " MiB";
        }
        if (bytes >= 1024 && bytes % 1024 == 0) {
            return bytes / 1024 + " KiB";
        }
        if (bytes >= 1024L * 1024) {
            return String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024));
        }
        if (bytes >= 1024) {
            return String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0);
        }
        return bytes + " B";
    }
}
