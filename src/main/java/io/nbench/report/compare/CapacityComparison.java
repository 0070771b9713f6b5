package io.nbench.report.compare;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nbench.report.CapacityTable;
import io.nbench.report.json.CapacityDoc;
import io.nbench.report.json.ResultDocument;
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
            case "client_limited" -> " (limited by the client: the server's limit was not reached)";
            case "unstable" -> " (unstable: the answer failed when measured again)";
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
        Ratio r = Ratio.of(x, a);
        String range = "[" + (r.low() == null ? "?" : ratio(r.low())) + ", "
                + (r.high() == null ? "?" : ratio(r.high())) + "]";
        String verdict = switch (r.verdict()) {
            case "higher", "lower" -> r.verdict();
            default -> "the brackets overlap: no difference shown";
        };
        return "  " + ratio(r.ratio()) + " x A " + range + ": " + verdict;
    }

    /**
     * X's capacity over A's: the ratio of the passing ends, and the range the two brackets allow ({@code low} null
     * when A's bracket has no failing end, {@code high} null when X's has none); {@code verdict} {@code higher} or
     * {@code lower} only when the whole range lies on that side of 1, else {@code overlap}.
     */
    record Ratio(double ratio, Double low, Double high, String verdict) {
        static Ratio of(CapacityDoc x, CapacityDoc a) {
            Double low = a.failed() == null ? null : x.passed() / a.failed();
            Double high = x.failed() == null ? null : x.failed() / a.passed();
            String verdict = low != null && low > 1 ? "higher" : high != null && high < 1 ? "lower" : "overlap";
            return new Ratio(x.passed() / a.passed(), low, high, verdict);
        }
    }

    /**
     * {@code compare --format json}'s {@code capacities}: one object per file, A first, each with its search
     * ({@code objective}, {@code outcome}, {@code passed}, {@code failed}; all null for a document without one)
     * and, from B on, {@code against} A: {@code ratio}, {@code low}, {@code high}, {@code verdict} (higher, lower,
     * overlap), or null when either found no rate or their objectives differ. Empty when no file searched one.
     */
    public static ArrayNode json(List<Named> all) {
        ArrayNode out = ResultDocument.MAPPER.createArrayNode();
        if (!any(all)) {
            return out;
        }
        CapacityDoc a = all.get(0).capacity();
        for (int i = 0; i < all.size(); i++) {
            Named n = all.get(i);
            CapacityDoc c = n.capacity();
            ObjectNode o = out.addObject();
            o.put("file", n.name());
            o.put("objective", c == null ? null : c.objective());
            o.put("outcome", c == null ? null : c.outcome());
            o.put("passed", c == null ? null : c.passed());
            o.put("failed", c == null ? null : c.failed());
            if (i == 0 || c == null || a == null || c.passed() == null || a.passed() == null
                    || !c.objective().equals(a.objective())) {
                o.putNull("against");
            } else {
                Ratio r = Ratio.of(c, a);
                o.putObject("against").put("ratio", r.ratio()).put("low", r.low()).put("high", r.high())
                        .put("verdict", r.verdict());
            }
        }
        return out;
    }

    /** {@code compare --format markdown}'s capacity lines, the text's in a list; nothing when no file searched one. */
    public static void markdown(PrintWriter out, List<Named> all) {
        if (!any(all)) {
            return;
        }
        out.println();
        out.println("#### Capacity (A = " + MarkdownText.code(all.get(0).name()) + ")");
        out.println();
        for (int i = 0; i < all.size(); i++) {
            Named n = all.get(i);
            out.println("- " + CompareTable.letter(i) + " " + MarkdownText.code(n.name()) + ": " + line(n.capacity())
                    + (i == 0 ? "" : against(n.capacity(), all.get(0).capacity())));
        }
    }

    private static String ratio(double r) {
        return String.format(Locale.ROOT, "%.2f", r);
    }
}
