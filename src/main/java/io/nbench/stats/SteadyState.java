package io.nbench.stats;

import java.util.Locale;

/**
 * Whether the measured iterations' throughput was at steady state or still moving (a JIT still warming,
 * caches filling, the machine getting busier): a trend over the iteration index. Averaging a trend and
 * printing an interval around it reports a figure the system never ran at, so a trend is a warning beside
 * the figures (never a FAIL: the figures are what was measured).
 *
 * <p>Two rules, either of which finds a trend; both must not cry wolf on noise at any N:
 * <ul>
 * <li><b>slope</b>: the least-squares slope of ln(throughput) over the iteration index, with its
 *     two-sided 99.9 % Student-t interval (N - 2 degrees of freedom). A trend when the interval excludes 0
 *     and the fitted change from the first iteration to the last is at least {@value #MIN_CHANGE}x (a
 *     drift under 10 % is left alone however tight the iterations: the wide-interval warning speaks of
 *     10 % too). Its false-alarm rate on trendless noise is 0.1 % at every N, by construction, but its
 *     power at small N is nil: with N = 3 (1 degree of freedom, t = 636.6) only three points almost exactly
 *     on a line pass, and 28k, 39k, 73k msg/s (t = 5.5) does not. It needs N of about 5 or more
 *     (t = 12.9 at N = 5, 5.0 at N = 10) to find a trend with ordinary noise around it.</li>
 * <li><b>monotone</b>: throughput rose (or fell) from every iteration to the next and the fitted change
 *     over the run is at least {@value #MONOTONE_CHANGE}x (or at most its inverse). This is the rule that
 *     can speak at N = 3, where no test at 99.9 % can (Mann-Kendall's smallest two-sided p at N = 3 is
 *     1/3). A monotone run of N values happens by chance with probability 2 / N! (1/3 at N = 3), so the
 *     size bound does the work: simulated on trendless log-normal noise, the rule fires at N = 3 in under
 *     0.001 % of runs at 5 % iteration-to-iteration variation and 0.4 % at 10 %; at N = 5, 0.04 % at
 *     10 %. Only at 20 % variation (11 % at N = 3), where the intervals are hopeless anyway and the
 *     wide-interval warning says so, is it often wrong.</li>
 * </ul>
 *
 * @param trend     the verdict
 * @param rule      which rule found the trend ({@code slope} checked first), or null
 * @param change    fitted throughput of the last iteration over that of the first: exp(slope x (N - 1));
 *                  NaN when untested
 * @param changeLow lower end of {@code change}'s 99.9 % interval (NaN when untested)
 * @param changeHigh upper end of {@code change}'s 99.9 % interval (NaN when untested)
 * @param n         measured iterations
 */
public record SteadyState(Trend trend, Rule rule, double change, double changeLow, double changeHigh, int n) {

    /** The smallest fitted change over the run that the slope rule reports. */
    public static final double MIN_CHANGE = 1.1;
    /** The smallest fitted change over the run that the monotone rule reports. */
    public static final double MONOTONE_CHANGE = 1.5;
    /** The fewest iterations either rule looks at: two points always lie on a line. */
    public static final int MIN_ITERATIONS = 3;

    /** What the test found. */
    public enum Trend {
        /** No trend found. */
        NONE,
        RISING,
        FALLING,
        /** Fewer than {@link #MIN_ITERATIONS} iterations, or one without throughput: not tested. */
        UNTESTED;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Which rule found a trend. */
    public enum Rule {
        SLOPE, MONOTONE;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Whether a trend was found: the measured iterations were not at steady state. */
    public boolean notSteady() {
        return trend == Trend.RISING || trend == Trend.FALLING;
    }

    /** Tests the measured iterations' throughputs (msg/s, in run order). */
    public static SteadyState of(double[] throughput) {
        int n = throughput.length;
        if (n < MIN_ITERATIONS || !LogRatio.defined(throughput)) {
            return new SteadyState(Trend.UNTESTED, null, Double.NaN, Double.NaN, Double.NaN, n);
        }
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            y[i] = Math.log(throughput[i]);
        }
        double xMean = (n - 1) / 2.0;
        double yMean = StudentT.mean(y);
        double sxx = 0;
        double sxy = 0;
        for (int i = 0; i < n; i++) {
            sxx += (i - xMean) * (i - xMean);
            sxy += (i - xMean) * (y[i] - yMean);
        }
        double slope = sxy / sxx;
        double sse = 0;
        for (int i = 0; i < n; i++) {
            double r = y[i] - yMean - slope * (i - xMean);
            sse += r * r;
        }
        double halfWidth = t(n - 2) * Math.sqrt(sse / (n - 2) / sxx);
        double span = n - 1;
        double change = Math.exp(slope * span);
        double low = Math.exp((slope - halfWidth) * span);
        double high = Math.exp((slope + halfWidth) * span);
        Trend direction = slope > 0 ? Trend.RISING : Trend.FALLING;
        Rule rule = null;
        if ((low > 1 || high < 1) && Math.max(change, 1 / change) >= MIN_CHANGE) {
            rule = Rule.SLOPE;
        } else if (monotone(throughput, direction) && Math.max(change, 1 / change) >= MONOTONE_CHANGE) {
            rule = Rule.MONOTONE;
        }
        return new SteadyState(rule == null ? Trend.NONE : direction, rule, change, low, high, n);
    }

    /** The 99.9 % t quantiles of the degrees of freedom runs have: computing one costs about as much as the test. */
    private static final double[] T = new double[64];

    static {
        for (int df = 1; df < T.length; df++) {
            T[df] = StudentT.quantile(StudentT.LEVEL, df);
        }
    }

    private static double t(int df) {
        return df < T.length ? T[df] : StudentT.quantile(StudentT.LEVEL, df);
    }

    /** Every value strictly above (rising) or below (falling) the one before. */
    private static boolean monotone(double[] v, Trend direction) {
        for (int i = 1; i < v.length; i++) {
            if (direction == Trend.RISING ? v[i] <= v[i - 1] : v[i] >= v[i - 1]) {
                return false;
            }
        }
        return true;
    }

    /**
     * The warning's words, e.g. "throughput rose 2.6x over 3 iterations", from the figures a document keeps
     * (so {@code compare} says what the client said).
     */
    public static String describe(Trend trend, double change, int n) {
        double factor = trend == Trend.FALLING ? 1 / change : change;
        return "throughput " + (trend == Trend.FALLING ? "fell " : "rose ")
                + String.format(Locale.ROOT, "%.1f", factor) + "x over " + n + " iterations";
    }

    /** The whole warning line's text, without "Warning: ". */
    public String warning() {
        String why = rule == Rule.SLOPE
                ? "a log-linear trend: last/first " + factor(change) + ", 99.9% interval " + factor(changeLow) + " to "
                + factor(changeHigh)
                : "it " + (trend == Trend.FALLING ? "fell" : "rose") + " from every iteration to the next";
        return "not at steady state: " + describe(trend, change, n) + " (" + why
                + "); add --warmup or lengthen the iterations";
    }

    private static String factor(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }
}
