package io.nbench.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.report.Tty;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks a text layout from the text alone: no line wider than the terminal, and in each table (a header row
 * starting {@code "  metric"}, then its indented rows) every row's cells start exactly where the header's do. A
 * cell starts at a character after two spaces or more (a cell's own words are one space apart, as
 * {@code B/A [99.9% CI]} or {@code 1,234 msg/s}); a row continued on the next line continues in the last column.
 */
public final class AlignedTables {

    /** One table: where its columns start and its rows (the continuation lines included), without the header. */
    public record Table(List<Integer> starts, List<String> rows) {

        /** The cells of one of its rows, each stripped. */
        public List<String> cells(String row) {
            List<String> cells = new ArrayList<>();
            for (int k = 0; k < starts.size(); k++) {
                int end = k + 1 < starts.size() ? Math.min(row.length(), starts.get(k + 1)) : row.length();
                cells.add(starts.get(k) >= row.length() ? "" : row.substring(starts.get(k), end).strip());
            }
            return cells;
        }
    }

    private AlignedTables() {
    }

    /** Every line at most {@code width} terminal columns. */
    public static void assertFits(List<String> lines, int width) {
        for (String line : lines) {
            assertTrue(Tty.columns(line) <= width, "over " + width + " columns (" + Tty.columns(line) + "): " + line
                    + "\n" + String.join("\n", lines));
        }
    }

    /** The tables in {@code lines}, each checked for alignment. */
    public static List<Table> tables(List<String> lines) {
        List<Table> tables = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).startsWith("  metric  ") && !lines.get(i).equals("  metric")) {
                continue;
            }
            List<Integer> starts = starts(lines.get(i));
            List<String> rows = new ArrayList<>();
            for (int j = i + 1; j < lines.size() && lines.get(j).startsWith("  ") && !lines.get(j).startsWith("  metric");
                 j++) {
                String row = lines.get(j);
                List<Integer> cells = starts(row);
                boolean continued = cells.equals(List.of(starts.get(starts.size() - 1)));
                assertTrue(continued || cells.equals(starts), "cells of '" + row + "' start at " + cells
                        + ", not under the header's " + starts + ":\n" + lines.get(i) + "\n" + row);
                rows.add(row);
            }
            tables.add(new Table(starts, rows));
        }
        return tables;
    }

    /** Tables whose first {@code n} columns start at the same places (a figure under the same figure). */
    public static void assertSameColumns(List<Table> tables, int n) {
        for (Table t : tables) {
            assertEquals(tables.get(0).starts().subList(0, n), t.starts().subList(0, n), "columns of " + t.rows());
        }
    }

    /** Where each cell of {@code line} starts, in characters (the layout's characters are one column wide). */
    static List<Integer> starts(String line) {
        List<Integer> starts = new ArrayList<>();
        for (int i = 0; i < line.length(); i++) {
            boolean afterGap = i >= 2 && line.charAt(i - 1) == ' ' && line.charAt(i - 2) == ' ';
            boolean first = line.substring(0, i).isBlank();
            if (line.charAt(i) != ' ' && (afterGap || first && starts.isEmpty())) {
                starts.add(i);
            }
        }
        return starts;
    }
}
