package io.nbench.report.compare;

import io.nbench.report.Tty;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The comparison laid out for a terminal of a given width ({@code nbench run}'s): per combination, one block per
 * other file against A, as hyperfine's summary puts each command against the fastest. Each row is a metric with
 * A's figure and the file's, its ratio to A with the 99.9% interval and the verdict; on a terminal too narrow
 * for A's figure beside the other's, A's figures are a block of their own, first, and the columns of the metric
 * and the figure are as wide in every block, so A's figures sit above the others'. More files make
 * it longer, never wider: a row that would still pass the width (a long verdict) continues on the next line in its
 * own column. {@code compare --baseline} lays out one document's combinations the same way, each against its
 * baseline ({@link Sides}).
 */
public final class CompareBlocks {

    /** One file's block: its title, the header row and one row of cells per metric. */
    private record Table(String title, List<List<String>> rows) {
    }

    private CompareBlocks() {
    }

    public static void print(PrintWriter out, List<ResultFile> files, List<Comparison.Block> blocks, int width) {
        print(out, new Sides.Files(files), blocks, width);
    }

    /** The blocks of files or of one document's combinations ({@code compare --baseline}), named as {@code sides} has them. */
    public static void print(PrintWriter out, Sides sides, List<Comparison.Block> blocks, int width) {
        wrapped(out, CompareTable.LEGEND, width, "    ");
        sides.legend().forEach(l -> wrapped(out, "  " + l, width, "      "));
        sides.notSteady().forEach(w -> wrapped(out, "  Warning: " + w.text(), width, "    "));
        for (Comparison.Block b : blocks) {
            out.println();
            wrapped(out, b.name(), width, "    ");
            combination(out, sides, b, width);
        }
        if (!sides.notCompared().isEmpty()) {
            out.println();
        }
        sides.notCompared().forEach(l -> wrapped(out, "Not compared: " + l, width, "    "));
        out.flush();
    }

    /**
     * One table per other that has the combination, then what the short verdicts mean. Where every row of those
     * tables with A's figure beside the other's fits the width, A's figures are a column of each (hyperfine's
     * "A vs B" at a glance, and half the lines for two files); else A's figures are a table of their own, first.
     */
    private static void combination(PrintWriter out, Sides sides, Comparison.Block b, int width) {
        List<Table> tables = new ArrayList<>();
        List<Table> beside = new ArrayList<>();
        List<List<String>> baseline = new ArrayList<>();
        baseline.add(List.of("metric", "A"));
        b.rows().forEach(r -> baseline.add(List.of(r.metric().name(),
                CompareTable.value(r.metric(), r.baseline()))));
        tables.add(new Table("A: " + sides.baseline(b) + " (the baseline)", baseline));
        List<String> missing = new ArrayList<>();
        TreeSet<Integer> tooFew = new TreeSet<>();
        boolean noValue = false;
        for (int i = 0; i < b.matched().size(); i++) {
            String x = CompareTable.letter(i + 1);
            if (b.matched().get(i) == null) {
                missing.add(x);
                continue;
            }
            List<List<String>> rows = new ArrayList<>();
            List<List<String>> withA = new ArrayList<>();
            rows.add(List.of("metric", x, x + "/A [99.9% CI]", "verdict"));
            withA.add(List.of("metric", "A", x, x + "/A [99.9% CI]", "verdict"));
            for (Comparison.Row r : b.rows()) {
                Comparison.Cell c = r.others().get(i);
                rows.add(List.of(r.metric().name(), CompareTable.value(r.metric(), c.mean()), CompareTable.ratio(c),
                        verdict(c)));
                withA.add(List.of(r.metric().name(), CompareTable.value(r.metric(), r.baseline()),
                        CompareTable.value(r.metric(), c.mean()), CompareTable.ratio(c), verdict(c)));
                if (c.verdict() == Comparison.Verdict.TOO_FEW) {
                    tooFew.add(c.smallerN());
                }
                noValue |= c.verdict() == Comparison.Verdict.NO_VALUE;
            }
            tables.add(new Table(x + ": " + sides.other(b, i) + " against A", rows));
            // No table of A's own names A here: the title does.
            beside.add(new Table(x + ": " + sides.other(b, i) + " against A = " + sides.baseline(b), withA));
        }
        // The metric and the figures as wide in every table; the ratio as its own table needs, so that one
        // hopeless interval (1.2e+05 [3.4e-300, Infinity]) does not push every other table's verdict along.
        int figures = fits(beside, width) ? 3 : 2;
        List<Table> shown = figures == 3 ? beside : tables;
        int[] shared = widths(shown);
        for (Table t : shown) {
            out.println();
            wrapped(out, t.title(), width, "    ");
            int[] widths = widths(List.of(t));
            System.arraycopy(shared, 0, widths, 0, figures);
            t.rows().forEach(r -> row(out, r, widths, width));
        }
        if (!missing.isEmpty()) {
            out.println();
            wrapped(out, "Not in " + String.join(", ", missing) + ": no figures to compare.", width, "    ");
        }
        if (!tooFew.isEmpty() || noValue) {
            out.println();
        }
        for (int n : tooFew) {
            wrapped(out, tooFew(n) + ": not significant, and " + n + " measured iterations (the fewer of the two "
                    + "sides) are too few to tell a difference from noise; use --iterations ≥ " + Comparison.DECISIVE_N
                    + " or --forks", width, "    ");
        }
        if (noValue) {
            wrapped(out, "n/a: " + Comparison.Verdict.NO_VALUE.toString().replaceFirst("^n/a: ", ""), width, "    ");
        }
    }

    /** Whether every row of {@code tables} fits {@code width} unbroken, laid out as {@link #row} lays it out. */
    private static boolean fits(List<Table> tables, int width) {
        if (tables.isEmpty()) {
            return false;
        }
        int[] shared = widths(tables);
        for (Table t : tables) {
            int[] w = widths(List.of(t));
            System.arraycopy(shared, 0, w, 0, 3);
            for (List<String> r : t.rows()) {
                int length = 2;
                for (int i = 0; i < r.size() - 1; i++) {
                    length += w[i] + 2;
                }
                if (length + Tty.columns(r.get(r.size() - 1)) > width) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The widest cell of each column over every table, so a column starts at the same place in each. */
    private static int[] widths(List<Table> tables) {
        int[] w = new int[5];
        for (Table t : tables) {
            for (List<String> r : t.rows()) {
                for (int i = 0; i < r.size(); i++) {
                    w[i] = Math.max(w[i], Tty.columns(r.get(i)));
                }
            }
        }
        return w;
    }

    /** One row, indented by two; the last cell broken at spaces within what the width leaves it. */
    private static void row(PrintWriter out, List<String> cells, int[] widths, int width) {
        StringBuilder sb = new StringBuilder("  ");
        for (int i = 0; i < cells.size() - 1; i++) {
            sb.append(cells.get(i)).append(" ".repeat(widths[i] - Tty.columns(cells.get(i)) + 2));
        }
        String indent = " ".repeat(sb.length());
        List<String> last = Tty.wrap(cells.get(cells.size() - 1), Math.max(1, width - sb.length()), "", "");
        out.println((sb + last.get(0)).stripTrailing());
        last.subList(1, last.size()).forEach(l -> out.println(indent + l));
    }

    /**
     * The verdict in a few words, so that a row keeps to 80 columns; the long ones are explained once under the
     * blocks.
     */
    private static String verdict(Comparison.Cell c) {
        return switch (c.verdict()) {
            case TOO_FEW -> tooFew(c.smallerN());
            case NO_VALUE -> "n/a";
            case SAME -> "not significant";
            default -> c.verdictText();
        };
    }

    private static String tooFew(int n) {
        return "too few (N=" + n + ")";
    }

    private static void wrapped(PrintWriter out, String text, int width, String rest) {
        String indent = text.substring(0, text.length() - text.stripLeading().length());
        Tty.wrap(text, width, indent, rest).forEach(out::println);
    }
}
