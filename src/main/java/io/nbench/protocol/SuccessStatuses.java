package io.nbench.protocol;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.StringJoiner;

/**
 * Which HTTP response statuses count as a success ({@code --success-status}): whole classes ({@code 2xx}) and
 * single codes ({@code 404}). Every response is timed whatever its status; one that is not a success is also an
 * error of kind {@code status}.
 *
 * @param classes the hundreds digit of each whole class (2 for 2xx), 1 to 5
 * @param codes   single codes, 100 to 599
 */
public record SuccessStatuses(List<Integer> classes, List<Integer> codes) {

    /** The default: 2xx. */
    public static final SuccessStatuses DEFAULT = new SuccessStatuses(List.of(2), List.of());

    public SuccessStatuses {
        classes = List.copyOf(classes);
        codes = List.copyOf(codes);
        for (int c : classes) {
            if (c < 1 || c > 5) {
                throw new IllegalArgumentException("a status class is 1xx to 5xx, not " + c + "xx");
            }
        }
        for (int c : codes) {
            if (c < 100 || c > 599) {
                throw new IllegalArgumentException("a status code is 100 to 599, not " + c);
            }
        }
    }

    /**
     * Parses {@code 2xx,3xx} or {@code 200,404}.
     *
     * @throws IllegalArgumentException naming the term that is neither a class nor a code
     */
    public static SuccessStatuses parse(String text) {
        List<Integer> classes = new ArrayList<>();
        List<Integer> codes = new ArrayList<>();
        for (String raw : text.split(",", -1)) {
            String t = raw.trim().toLowerCase(Locale.ROOT);
            if (t.matches("[1-5]xx")) {
                classes.add(t.charAt(0) - '0');
            } else if (t.matches("[1-5][0-9][0-9]")) {
                codes.add(Integer.parseInt(t));
            } else {
                throw new IllegalArgumentException("'" + raw.trim() + "' is neither a status class (1xx-5xx) nor a "
                        + "code (100-599): give e.g. 2xx,3xx or 200,404");
            }
        }
        return new SuccessStatuses(classes, codes);
    }

    /** A look-up table by code (0-599), made once: the per-response test allocates nothing. */
    public boolean[] table() {
        boolean[] t = new boolean[600];
        for (int c : classes) {
            Arrays.fill(t, c * 100, c * 100 + 100, true);
        }
        for (int c : codes) {
            t[c] = true;
        }
        return t;
    }

    /** Whether {@code code} is a success (not on the hot path: it builds the table). */
    public boolean test(int code) {
        return code >= 0 && code < 600 && table()[code];
    }

    /** As the option is written: {@code 2xx,404}. */
    @Override
    public String toString() {
        StringJoiner j = new StringJoiner(",");
        classes.forEach(c -> j.add(c + "xx"));
        codes.forEach(c -> j.add(Integer.toString(c)));
        return j.toString();
    }
}
