package io.nbench.stats;

/**
 * The ratio B/A of two samples of positive per-iteration values (throughputs, latencies) with a
 * confidence interval that cannot cross zero: Welch's t interval on the natural logarithms, exponentiated.
 * The ratio is that of the geometric means, exp(mean(ln b) - mean(ln a)), and always lies inside its
 * interval; the interval excludes 1 exactly when Welch's two-sided test on the logarithms rejects at the
 * chosen level.
 *
 * <p>Why logarithms and not Fieller's theorem: benchmark noise is multiplicative (a slower machine scales
 * every figure), the interval on logs is symmetric under swapping A and B (A/B's interval is B/A's
 * inverted), and it is always a finite positive interval, whereas Fieller's interval for a ratio of means
 * becomes unbounded or the complement of an interval when A's mean is not itself clearly non-zero (small
 * N, noisy A), which is exactly when a reader needs a plain answer.
 */
public final class LogRatio {

    private LogRatio() {
    }

    /**
     * @param ratio geometric mean of b over geometric mean of a (NaN when a side is empty)
     * @param low   lower end of the interval; NaN when either side has N &lt; 2
     * @param high  upper end of the interval; NaN when either side has N &lt; 2
     * @param df    Welch–Satterthwaite degrees of freedom of the log values (NaN when undefined)
     */
    public record Ratio(double ratio, double low, double high, double df) {

        /** Whether there is an interval (both sides have 2 values or more). */
        public boolean hasInterval() {
            return !Double.isNaN(low);
        }

        /** Whether the interval excludes 1: the two differ at the chosen level. */
        public boolean significant() {
            return low > 1 || high < 1;
        }
    }

    /** Whether every value is positive and finite: only then is a log ratio defined. */
    public static boolean defined(double[] values) {
        for (double v : values) {
            if (!(v > 0) || Double.isInfinite(v)) {
                return false;
            }
        }
        return true;
    }

    /** B/A at {@code level}; every value must be {@linkplain #defined(double[]) positive and finite}. */
    public static Ratio of(double[] a, double[] b, double level) {
        if (!defined(a) || !defined(b)) {
            throw new IllegalArgumentException("a log ratio needs positive finite values");
        }
        Welch.Difference d = Welch.difference(log(a), log(b), level);
        double ratio = Math.exp(d.diff());
        if (Double.isNaN(d.halfWidth())) {
            return new Ratio(ratio, Double.NaN, Double.NaN, d.df());
        }
        return new Ratio(ratio, Math.exp(d.diff() - d.halfWidth()), Math.exp(d.diff() + d.halfWidth()), d.df());
    }

    private static double[] log(double[] values) {
        double[] l = new double[values.length];
        for (int i = 0; i < l.length; i++) {
            l[i] = Math.log(values[i]);
        }
        return l;
    }
}
