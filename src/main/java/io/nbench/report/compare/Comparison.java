package io.nbench.report.compare;

import io.nbench.stats.StudentT;
import io.nbench.stats.Welch;
import java.util.ArrayList;
import java.util.List;

/**
 * Result files side by side: for each combination of the first file, the same combination in each other
 * file (matched by equal keys; two files of one combination each are matched whatever their keys, the
 * usual baseline-against-candidate case), and for each metric the difference of per-iteration means by
 * Welch's t at 99.9 %.
 */
public final class Comparison {

    /** The plain verdict of one cell. */
    public enum Verdict {
        FASTER("faster"), SLOWER("slower"), SAME("no significant difference"), TOO_FEW("n/a: fewer than 2 iterations");

        private final String text;

        Verdict(String text) {
            this.text = text;
        }

        @Override
        public String toString() {
            return text;
        }
    }

    /** One other file's figure for a metric: its mean, and against the first file the ratio, interval and verdict. */
    public record Cell(double mean, int n, Welch.Difference difference, Verdict verdict) {
    }

    /** One metric of one combination: the first file's mean and the other files' cells (null: missing). */
    public record Row(CompareMetric metric, double baseline, int baselineN, List<Cell> others) {
    }

    /** One combination of the first file and its rows; {@code matched[i]} names file i+1's combination. */
    public record Block(String name, List<String> matched, List<Row> rows) {
    }

    private Comparison() {
    }

    public static List<Block> compare(List<ResultFile> files) {
        ResultFile first = files.get(0);
        List<Block> blocks = new ArrayList<>();
        for (ResultFile.CombinationData base : first.combinations()) {
            List<ResultFile.CombinationData> partners = new ArrayList<>();
            List<String> matched = new ArrayList<>();
            for (ResultFile other : files.subList(1, files.size())) {
                ResultFile.CombinationData p = match(base, first, other);
                partners.add(p);
                matched.add(p == null ? null : p.name());
            }
            List<Row> rows = new ArrayList<>();
            for (CompareMetric m : CompareMetric.ALL) {
                double[] a = m.values(base.iterations());
                List<Cell> cells = new ArrayList<>();
                for (ResultFile.CombinationData p : partners) {
                    cells.add(p == null ? null : cell(m, a, m.values(p.iterations())));
                }
                rows.add(new Row(m, a.length == 0 ? Double.NaN : StudentT.mean(a), a.length, cells));
            }
            blocks.add(new Block(base.name(), matched, rows));
        }
        return blocks;
    }

    private static ResultFile.CombinationData match(ResultFile.CombinationData base, ResultFile baseFile, ResultFile other) {
        for (ResultFile.CombinationData c : other.combinations()) {
            if (c.keys().equals(base.keys())) {
                return c;
            }
        }
        if (baseFile.combinations().size() == 1 && other.combinations().size() == 1) {
            return other.combinations().get(0);
        }
        return null;
    }

    private static Cell cell(CompareMetric m, double[] a, double[] b) {
        Welch.Difference d = Welch.difference(a, b, StudentT.LEVEL);
        Verdict v;
        if (a.length < 2 || b.length < 2) {
            v = Verdict.TOO_FEW;
        } else if (!d.significant()) {
            v = Verdict.SAME;
        } else {
            boolean higher = d.diff() > 0;
            v = higher == m.higherIsBetter() ? Verdict.FASTER : Verdict.SLOWER;
        }
        return new Cell(b.length == 0 ? Double.NaN : StudentT.mean(b), b.length, d, v);
    }
}
