package io.nbench.report.compare;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A bound {@code nbench compare} gates on: {@code --fail-if-slower PCT} (throughput at least PCT % lower than the
 * baseline) or {@code --fail-if-higher METRIC:PCT} (a latency metric at least PCT % higher). It is breached only by a
 * <em>significant</em> regression beyond the bound: the whole 99.9 % interval of the ratio to the first file lies
 * beyond it (throughput: its upper end below {@code 1 - PCT/100}; latency: its lower end above
 * {@code 1 + PCT/100}), so noise alone fails a build at most once in a thousand comparisons. A cell with no
 * ratio (an iteration that measured nothing) or no interval (N &lt; 2) cannot breach it, and neither it, nor a
 * combination missing from a file, nor fewer than {@link Comparison#DECISIVE_N} iterations can pass it: those
 * are not judged ({@link Verdict#judged}), which {@code compare} reports and exits 6 on.
 *
 * @param expression as given, e.g. {@code --fail-if-higher p99:10}
 * @param metric     the compared metric's name ({@code throughput}, {@code p50}, ..., {@code max})
 * @param percent    the tolerated regression in %
 */
public record Gate(String expression, String metric, double percent) {

    /** {@code --fail-if-slower PCT}. */
    public static Gate slower(double percent) {
        check(percent, "--fail-if-slower");
        return new Gate("--fail-if-slower " + number(percent), "throughput", percent);
    }

    /** {@code --fail-if-higher METRIC:PCT}; METRIC a latency metric of {@link CompareMetric#ALL}. */
    public static Gate higher(String spec) {
        int colon = spec.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("--fail-if-higher " + spec + ": expected METRIC:PCT, e.g. p99:10");
        }
        String metric = spec.substring(0, colon).strip();
        List<String> latency = new ArrayList<>();
        for (CompareMetric m : CompareMetric.ALL) {
            if (!m.higherIsBetter() && !m.cost()) {
                latency.add(m.name());
            }
        }
        if (!latency.contains(metric)) {
            throw new IllegalArgumentException("--fail-if-higher " + spec + ": unknown metric '" + metric + "' (one of "
                    + String.join(", ", latency) + ")");
        }
        double percent;
        try {
            percent = Double.parseDouble(spec.substring(colon + 1).strip().replace("%", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--fail-if-higher " + spec + ": '" + spec.substring(colon + 1)
                    + "' is not a percentage");
        }
        check(percent, "--fail-if-higher " + spec);
        return new Gate("--fail-if-higher " + metric + ":" + number(percent), metric, percent);
    }

    private static void check(double percent, String option) {
        if (!(percent >= 0) || Double.isInfinite(percent)) {
            throw new IllegalArgumentException(option + ": the percentage must be 0 or more");
        }
    }

    /** Throughput: higher is better, so a regression is a ratio below 1. */
    public boolean throughput() {
        return metric.equals("throughput");
    }

    /** The ratio to the first file beyond which the metric has regressed by more than {@link #percent}. */
    public double bound() {
        return throughput() ? 1 - percent / 100 : 1 + percent / 100;
    }

    /** Whether the cell's whole interval lies beyond the bound. */
    public boolean breachedBy(Comparison.Cell c) {
        if (c == null || c.ratio() == null || !c.ratio().hasInterval()) {
            return false;
        }
        return throughput() ? c.ratio().high() < bound() : c.ratio().low() > bound();
    }

    /**
     * One judged pair: a combination of the first file (null when it has none), another file, and whether it
     * breached this gate; {@code cell} is null when that file lacks the combination. With {@code --baseline},
     * {@code combination} is the baseline combination (null when {@code against} has none) and {@code file} the
     * column of {@code against} in its block, plus one.
     *
     * @param against the combination compared with {@code combination}: the other file's (in compare A.json
     *                B.json), or another combination of the document (--baseline); null when missing
     */
    public record Verdict(Gate gate, String combination, int file, String against, Comparison.Cell cell,
                          boolean breached) {

        /**
         * Whether the gate was judged: breached, or not breached on enough evidence (an interval from at least
         * {@link Comparison#DECISIVE_N} iterations on each side). A missing combination, a file that measured nothing
         * and too few iterations are not judged: the gate did not pass, it could not be evaluated.
         */
        public boolean judged() {
            return breached || cell != null && cell.ratio() != null && cell.ratio().hasInterval()
                    && cell.smallerN() >= Comparison.DECISIVE_N;
        }

        /** Why it was not judged, naming the other file as {@code fileName}; null when it was. */
        public String whyNotJudged(String fileName) {
            if (judged()) {
                return null;
            }
            if (combination == null) {
                return "the first file has no combination to compare";
            }
            if (cell == null) {
                return "the combination is not in " + fileName;
            }
            if (cell.ratio() == null) {
                return cell.verdictText();
            }
            if (cell.smallerN() == 0) {
                return "no measured iteration";
            }
            return "N=" + cell.smallerN() + ": " + Comparison.Verdict.TOO_FEW;
        }

        /** One line for stderr: what regressed, by how much, against which bound. */
        public String describe(String fileName) {
            LogRatioText r = new LogRatioText(cell);
            return gate.expression() + " breached: " + combination + ": " + fileName + " " + gate.metric() + " is "
                    + r + " times the baseline's, beyond " + CompareTable.number(gate.bound());
        }

        /** One line for stderr naming the gate, the combination, the file and why it was not judged. */
        public String describeNotJudged(String fileName) {
            return gate.expression() + " not judged" + (combination == null ? "" : " for " + combination) + " in "
                    + fileName + ": " + whyNotJudged(fileName);
        }

        /** {@link #describe} for {@code --baseline}: the compared combination against its baseline. */
        public String describeAgainstBaseline() {
            return gate.expression() + " breached: " + against + ": " + gate.metric() + " is " + new LogRatioText(cell)
                    + " times that of its baseline " + combination + ", beyond " + CompareTable.number(gate.bound());
        }

        /** {@link #describeNotJudged} for {@code --baseline}, with the reason {@code why}. */
        public String describeNotJudgedAgainstBaseline(String why) {
            return gate.expression() + " not judged for " + against + (combination == null ? ""
                    : " against its baseline " + combination) + ": " + why;
        }
    }

    /**
     * The verdict on a combination that has no baseline to be compared with ({@code --baseline}): not judged, as a
     * combination missing from a file is.
     */
    public Verdict withoutBaseline(String combination) {
        return new Verdict(this, null, 0, combination, null, false);
    }

    /**
     * Every (combination of the first file, other file) pair of this gate's metric, judged; a pair whose file
     * lacks the combination, and each other file when the first has no combination at all, is there unjudged.
     *
     * @param files how many files were compared, the first included
     */
    public List<Verdict> judge(List<Comparison.Block> blocks, int files) {
        List<Verdict> out = new ArrayList<>();
        if (blocks.isEmpty()) {
            for (int i = 1; i < files; i++) {
                out.add(new Verdict(this, null, i, null, null, false));
            }
        }
        for (Comparison.Block b : blocks) {
            for (Comparison.Row r : b.rows()) {
                if (!r.metric().name().equals(metric)) {
                    continue;
                }
                for (int i = 0; i < r.others().size(); i++) {
                    Comparison.Cell c = r.others().get(i);
                    out.add(new Verdict(this, b.name(), i + 1, b.matched().get(i), c, breachedBy(c)));
                }
            }
        }
        return out;
    }

    private static String number(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%s", v);
    }

    /** A cell's ratio with its interval, as the table prints it. */
    private record LogRatioText(Comparison.Cell cell) {
        @Override
        public String toString() {
            return CompareTable.number(cell.ratio().ratio()) + " [" + CompareTable.number(cell.ratio().low()) + ", "
                    + CompareTable.number(cell.ratio().high()) + "]";
        }
    }
}
