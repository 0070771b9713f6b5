package io.nbench.report;

import io.nbench.stats.StudentT;
import io.nbench.stats.Summary;
import io.nbench.units.Units;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * The end of a sweep's text output: one row per combination with its merged figures, so the
 * combinations compare at a glance (the full detail is above each row's own summary and in --out).
 */
public final class SweepTable {

    private SweepTable() {
    }

    public static void print(PrintWriter out, SweepResult sweep) {
        List<String> head = new ArrayList<>(sweep.keys());
        head.addAll(List.of("msg/s", "± 99.9% CI", "p50 µs", "p99 µs", "p99.9 µs", "max µs", "errors", "result"));
        List<List<String>> rows = new ArrayList<>();
        for (CombinationResult c : sweep.combinations()) {
            List<String> row = new ArrayList<>();
            for (String k : sweep.keys()) {
                String v = c.combination().get(k);
                row.add(v == null ? "-" : v);
            }
            Summary s = c.run().summary();
            StudentT.Interval tp = s.throughput();
            row.add(Double.isNaN(tp.mean()) ? "-" : Units.rate(tp.mean()));
            row.add(Double.isNaN(tp.halfWidth()) ? "n/a" : Units.rate(tp.halfWidth()));
            for (double p : new double[] {50, 99, 99.9, 100}) {
                row.add(s.latencyMeasured() ? Units.micros(s.mergedPercentile(p)) : "-");
            }
            row.add(Units.count(c.run().errors().total()));
            row.add(c.status().name());
            rows.add(row);
        }
        int[] width = new int[head.size()];
        for (int i = 0; i < width.length; i++) {
            width[i] = head.get(i).length();
            for (List<String> r : rows) {
                width[i] = Math.max(width[i], r.get(i).length());
            }
        }
        out.println("================================================");
        out.println("SWEEP RESULTS (" + rows.size() + " combinations, measured iterations merged)");
        out.println("================================================");
        out.println(line(head, width, sweep.keys().size()));
        for (List<String> r : rows) {
            out.println(line(r, width, sweep.keys().size()));
        }
        out.flush();
    }

    /** Keys left-aligned, figures right-aligned. */
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
