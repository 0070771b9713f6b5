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
        out.println("================================================");
        out.println("SWEEP RESULTS (" + rows.size() + " combinations, measured iterations merged)");
        out.println("================================================");
        TextTable.print(out, head, rows, sweep.keys().size());
        out.flush();
    }
}
