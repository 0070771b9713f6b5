package io.nbench.report;

import java.io.PrintWriter;
import java.util.List;

/** A table of the text output: columns as wide as their widest cell, keys and the last column left-aligned. */
final class TextTable {

    private TextTable() {
    }

    /** {@code keys}: how many leading columns name a row (left-aligned); figures are right-aligned. */
    static void print(PrintWriter out, List<String> head, List<List<String>> rows, int keys) {
        int[] width = new int[head.size()];
        for (int i = 0; i < width.length; i++) {
            width[i] = head.get(i).length();
            for (List<String> r : rows) {
                width[i] = Math.max(width[i], r.get(i).length());
            }
        }
        out.println(line(head, width, keys));
        for (List<String> r : rows) {
            out.println(line(r, width, keys));
        }
    }

    private static String line(List<String> cells, int[] width, int keys) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < cells.size(); i++) {
            if (i > 0) {
                sb.append("  ");
            }
            String c = cells.get(i);
            String pad = " ".repeat(width[i] - c.length());
            sb.append(i < keys || i == cells.size() - 1 ? c + pad : pad + c);
        }
        return sb.toString().stripTrailing();
    }
}
