package io.nbench.report.compare;

import io.nbench.stats.LogRatio;
import io.nbench.stats.StudentT;
import java.util.ArrayList;
import java.util.List;

/**
 * Result files side by side: for each combination of the first file, the same combination in each other
 * file (matched by equal keys; two files of one combination each are matched whatever their keys, the
 * usual baseline-against-candidate case), and for each metric the ratio of per-iteration values with its
 * 99.9 % interval ({@link LogRatio}: Welch's t on log values, so it cannot cross zero) and a verdict.
 */
public final class Comparison {

    /** The plain verdict of one cell. */
    public enum Verdict {
        FASTER("faster"), SLOWER("slower"),
        /** A cost (CPU): significantly less, or more, than the first file's. */
        LESS("less"), MORE("more"),
        SAME("no significant difference"),
        /** Not significant, and too few iterations to tell a real difference from noise: not "the same". */
        TOO_FEW("too few iterations to decide; use --iterations ≥ " + Comparison.DECISIVE_N + " or --forks"),
        /** An iteration has a figure of 0 (nothing measured): no ratio. */
        NO_VALUE("n/a: an iteration's figure is 0 (no message completed, or CPU time under the OS's 10 ms clock tick)");

        private final String text;

        Verdict(String text) {
            this.text = text;
        }

        @Override
        public String toString() {
            return text;
        }
    }

    /**
     * Below this many iterations on either side, a difference that is not significant is reported as too
     * few to decide: the 99.9 % t quantile is 636.6 with 1 degree of freedom, 31.6 with 2, 12.9 with 3,
     * and only from 4 (N = 5) down to 8.6, so with fewer iterations even a several-fold gap is not
     * significant and "no significant difference" would read as equality.
     */
    public static final int DECISIVE_N = 5;

    /**
     * One other file's figure for a metric: its mean, and against the first file the ratio with its interval
     * (null when undefined: a figure of 0) and the verdict; {@code smallerN} is the fewer iterations of the two.
     */
    public record Cell(double mean, int n, int smallerN, LogRatio.Ratio ratio, Verdict verdict) {

        /** The verdict as printed; too few iterations names N. */
        public String verdictText() {
            return verdict == Verdict.TOO_FEW ? "N=" + smallerN + ": " + verdict : verdict.toString();
        }
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
            for (ResultFile other : files.subList(1, files.size())) {
                partners.add(match(base, first, other));
            }
            blocks.add(block(base, partners));
        }
        return blocks;
    }

    /**
     * One combination against its partners (another file's, or other combinations of its document): a row per
     * metric, a cell per partner (null where the partner is null: missing).
     */
    static Block block(ResultFile.CombinationData base, List<ResultFile.CombinationData> partners) {
        List<String> matched = new ArrayList<>();
        partners.forEach(p -> matched.add(p == null ? null : p.name()));
        List<Row> rows = new ArrayList<>();
        for (CompareMetric m : CompareMetric.ALL) {
            double[] a = m.values(base.iterations());
            List<Cell> cells = new ArrayList<>();
            boolean any = a.length > 0;
            for (ResultFile.CombinationData p : partners) {
                double[] b = p == null ? null : m.values(p.iterations());
                any |= b != null && b.length > 0;
                cells.add(p == null ? null : cell(m, a, b));
            }
            if (m.cost() && !any) {
                continue; // e.g. server CPU without --server-stats: no row rather than a row of dashes
            }
            rows.add(new Row(m, a.length == 0 ? Double.NaN : StudentT.mean(a), a.length, cells));
        }
        return new Block(base.name(), matched, rows);
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
        double mean = b.length == 0 ? Double.NaN : StudentT.mean(b);
        int n = Math.min(a.length, b.length);
        if (!LogRatio.defined(a) || !LogRatio.defined(b)) {
            return new Cell(mean, b.length, n, null, Verdict.NO_VALUE);
        }
        LogRatio.Ratio r = LogRatio.of(a, b, StudentT.LEVEL);
        Verdict v;
        if (r.significant()) {
            boolean higher = r.low() > 1;
            v = m.cost() ? (higher ? Verdict.MORE : Verdict.LESS)
                    : higher == m.higherIsBetter() ? Verdict.FASTER : Verdict.SLOWER;
        } else {
            v = n < DECISIVE_N ? Verdict.TOO_FEW : Verdict.SAME;
        }
        return new Cell(mean, b.length, n, r, v);
    }
}
