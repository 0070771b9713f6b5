package io.nbench.stats;

import org.apache.commons.math3.distribution.TDistribution;

/**
 * Welch's t interval for the difference of two means with unequal variances (what {@code nbench compare}
 * uses on per-iteration values): diff = mean(b) - mean(a), half-width = t(df) * sqrt(va/na + vb/nb), df by
 * Welch–Satterthwaite. The interval excludes 0 exactly when commons-math's two-sided
 * {@code TTest.tTest(a, b)} p-value is below 1 - level.
 */
public final class Welch {

    private Welch() {
    }

    /**
     * @param meanA     mean of a
     * @param meanB     mean of b
     * @param halfWidth the interval of meanB - meanA is diff ± halfWidth; NaN when either side has N &lt; 2
     * @param df        Welch–Satterthwaite degrees of freedom (NaN when undefined)
     */
    public record Difference(double meanA, double meanB, double halfWidth, double df) {

        public double diff() {
            return meanB - meanA;
        }

        /** Whether the interval excludes 0: the means differ at the chosen level. */
        public boolean significant() {
            return !Double.isNaN(halfWidth) && Math.abs(diff()) > halfWidth;
        }
    }

    public static Difference difference(double[] a, double[] b, double level) {
        double ma = StudentT.mean(a);
        double mb = StudentT.mean(b);
        if (a.length < 2 || b.length < 2) {
            return new Difference(ma, mb, Double.NaN, Double.NaN);
        }
        double qa = StudentT.variance(a, ma) / a.length;
        double qb = StudentT.variance(b, mb) / b.length;
        double se = Math.sqrt(qa + qb);
        if (se == 0) {
            return new Difference(ma, mb, 0, Double.NaN); // both constant: any difference is real
        }
        double df = (qa + qb) * (qa + qb) / (qa * qa / (a.length - 1) + qb * qb / (b.length - 1));
        double t = new TDistribution(null, df).inverseCumulativeProbability(1 - (1 - level) / 2);
        return new Difference(ma, mb, t * se, df);
    }
}
