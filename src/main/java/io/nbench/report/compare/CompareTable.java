package io.nbench.report.compare;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The text of {@code nbench compare}: one block per combination, one row per metric, files side by side. */
public final class CompareTable {

    private CompareTable() {
    }

    /** What the figures are, above the table (and above {@link CompareBlocks}'). */
    static final String LEGEND = "nbench compare: per-iteration means of measured iterations; ratio to A (of geometric "
            + "means) with its 99.9% CI (Welch's t on log values); latency: lower is faster";

    public static void print(PrintWriter out, List<ResultFile> files, List<Comparison.Block> blocks) {
        out.println(LEGEND);
        for (int i = 0; i < files.size(); i++) {
            out.println("  " + letter(i) + ": " + files.get(i).path());
        }
        steadyStateWarnings(files).forEach(w -> out.println("  Warning: " + w.text()));
        for (Comparison.Block b : blocks) {
            out.println();
            StringBuilder title = new StringBuilder(b.name());
            for (int i = 0; i < b.matched().size(); i++) {
                String m = b.matched().get(i);
                if (m == null) {
                    title.append("  (not in ").append(letter(i + 1)).append(')');
                } else if (!m.equals(b.name())) {
                    title.append("  (").append(letter(i + 1)).append(": ").append(m).append(')');
                }
            }
            out.println(title);
            List<List<String>> rows = new ArrayList<>();
            List<String> head = new ArrayList<>(List.of("metric", "A"));
            for (int i = 1; i < files.size(); i++) {
                String x = letter(i);
                head.addAll(List.of(x, x + "/A [99.9% CI]", "verdict"));
            }
            rows.add(head);
            for (Comparison.Row r : b.rows()) {
                List<String> row = new ArrayList<>();
                row.add(r.metric().name());
                row.add(value(r.metric(), r.baseline()));
                for (Comparison.Cell c : r.others()) {
                    if (c == null) {
                        row.addAll(List.of("-", "-", "-"));
                        continue;
                    }
                    row.add(value(r.metric(), c.mean()));
                    row.add(ratio(c));
                    row.add(c.verdictText());
                }
                rows.add(row);
            }
            printAligned(out, rows);
        }
        out.flush();
    }

    /**
     * A combination whose document found a trend in its iterations: its mean is of a system still changing,
     * and so is any ratio to it. {@code name} is as the document wrote it (each format escapes it for itself).
     */
    record NotSteady(String letter, String file, String name, String why) {
        /** "B impl=nio: not at steady state: ...", for text; without a letter (one document), the name alone. */
        String text() {
            return (letter == null ? "" : letter + " ") + name + ": " + why;
        }
    }

    static List<NotSteady> steadyStateWarnings(List<ResultFile> files) {
        List<NotSteady> warnings = new ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            for (ResultFile.CombinationData c : files.get(i).combinations()) {
                if (c.notSteady() != null) {
                    warnings.add(new NotSteady(letter(i), files.get(i).path().toString(), c.name(), c.notSteady()));
                }
            }
        }
        return warnings;
    }

    /** A figure as its metric shows it, "-" when there is none. */
    static String value(CompareMetric m, double v) {
        return Double.isNaN(v) ? "-" : m.format().apply(v);
    }

    /** The ratio to A with its interval, "-" when undefined. */
    static String ratio(Comparison.Cell c) {
        if (c.ratio() == null || Double.isNaN(c.ratio().ratio())) {
            return "-";
        }
        if (!c.ratio().hasInterval()) {
            return number(c.ratio().ratio());
        }
        return number(c.ratio().ratio()) + " [" + number(c.ratio().low()) + ", " + number(c.ratio().high()) + "]";
    }

    /** Three decimals; a bound of a hopelessly wide interval (below 0.001, 10,000 or more) in scientific notation. */
    static String number(double v) {
        if (v < 0.001 || v >= 10_000) {
            return String.format(Locale.ROOT, "%.2e", v);
        }
        return String.format(Locale.ROOT, "%.3f", v);
    }

    /** A file's letter in the table: A for the first, ... (F27 from the 27th on). */
    static String letter(int i) {
        return i < 26 ? String.valueOf((char) ('A' + i)) : "F" + (i + 1);
    }

    private static void printAligned(PrintWriter out, List<List<String>> rows) {
        int columns = rows.get(0).size();
        int[] width = new int[columns];
        for (List<String> r : rows) {
            for (int i = 0; i < columns; i++) {
                width[i] = Math.max(width[i], r.get(i).length());
            }
        }
        for (List<String> r : rows) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < columns; i++) {
                if (i > 0) {
                    sb.append("  ");
                }
                sb.append(r.get(i)).append(" ".repeat(width[i] - r.get(i).length()));
            }
            out.println(sb.toString().stripTrailing());
        }
    }
}
