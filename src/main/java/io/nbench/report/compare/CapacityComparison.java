package io.nbench.report.compare;

import io.nbench.report.CapacityTable;
import io.nbench.report.json.CapacityDoc;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/**
 * Capacities side by side ({@code run --find-rate}, {@code compare} of {@code --find-rate} documents): each
 * against the first, as a ratio whose range comes from the two brackets. Capacity X lies in [passed X, failed X]
 * and A in [passed A, failed A], so X / A lies in [passed X / failed A, failed X / passed A]; only a range wholly
 * above or below 1 shows a difference.
 */
public final class CapacityComparison {

    private CapacityComparison() {
    }

    /** A capacity under a name (a server, a file); {@code capacity} null: that document searched none. */
    public record Named(String name, CapacityDoc capacity) {
    }

    /** Whether any of them searched a capacity (else there is nothing to print). */
    public static boolean any(List<Named> all) {
        return all.stream().anyMatch(n -> n.capacity() != null);
    }

    public static void print(PrintWriter out, List<Named> all) {
        Named a = all.get(0);
        out.println("=== capacity (A = " + a.name() + ") ===");
        for (int i = 0; i < all.size(); i++) {
            Named n = all.get(i);
            String label = i == 0 ? "A" : Character.toString((char) ('A' + Math.min(i, 25)));
            out.println(label + "  " + n.name() + ": " + line(n.capacity()) + (i == 0 ? "" : against(n.capacity(),
                    a.capacity())));
        }
        out.flush();
    }

    /** {@code 3,606 requests/s within p99<=20ms [3,606 passed, 3,662 failed]}. */
    static String line(CapacityDoc c) {
        if (c == null) {
            return "no capacity search in this document";
        }
        if (c.passed() == null) {
            return "not found: no rate met " + c.objective() + ending(c.outcome());
        }
        return CapacityTable.rate(c.passed()) + " requests/s within " + c.objective() + " ["
                + CapacityTable.rate(c.passed()) + " passed, "
                + (c.failed() == null ? "no higher rate failed" : CapacityTable.rate(c.failed()) + " failed") + "]"
                + ending(c.outcome());
    }

    /** How the search ended, in words (the document's outcome is a token: found, stopped, interrupted, none_passed). */
    private static String ending(String outcome) {
        return switch (outcome) {
            case "stopped" -> " (stopped by --max-time)";
            case "interrupted" -> " (interrupted)";
            default -> ""; // found, or none_passed: the line already says it
        };
    }

    /** {@code  0.86 x A [0.85, 0.88]: lower}; the range is open above when a bracket has no failing end. */
    static String against(CapacityDoc x, CapacityDoc a) {
        if (x == null || a == null || x.passed() == null || a.passed() == null) {
            return "";
        }
        if (!x.objective().equals(a.objective())) {
            return "  (objectives differ: " + x.objective() + " against " + a.objective() + ", not compared)";
        }
        double ratio = x.passed() / a.passed();
        double low = a.failed() == null ? Double.NaN : x.passed() / a.failed();
        double high = x.failed() == null ? Double.POSITIVE_INFINITY : x.failed() / a.passed();
        String range = "[" + (Double.isNaN(low) ? "?" : ratio(low)) + ", "
                + (Double.isInfinite(high) ? "?" : ratio(high)) + "]";
        String verdict = !Double.isNaN(low) && low > 1 ? "higher"
                : high < 1 ? "lower" : "the brackets overlap: no difference shown";
        return "  " + ratio(ratio) + " x A " + range + ": " + verdict;
    }

    private static String ratio(double r) {
        return String.format(Locale.ROOT, "%.2f", r);
    }
}
