package io.nbench.stats;

import org.apache.commons.math3.distribution.TDistribution;

/**
 * Means with a two-sided Student-t confidence interval, computed as JMH does: half-width =
 * t(1 - (1 - level) / 2, N - 1) * s / sqrt(N), with s the sample standard deviation (N - 1 divisor).
 */
public final class StudentT {

    /** The confidence level of every interval nbench prints. */
    public static final double LEVEL = 0.999;

    private StudentT() {
    }

    /** Mean and the half-width of its interval at {@link #LEVEL}; the half-width is NaN when N &lt; 2. */
    public static Interval interval(double[] values) {
        return interval(values, LEVEL);
    }

    public static Interval interval(double[] values, double level) {
        int n = values.length;
        if (n == 0) {
            return new Interval(Double.NaN, Double.NaN, 0);
        }
        double mean = mean(values);
        if (n < 2) {
            return new Interval(mean, Double.NaN, n);
        }
        double s = Math.sqrt(variance(values, mean));
        double t = quantile(level, n - 1);
        return new Interval(mean, t * s / Math.sqrt(n), n);
    }

    /** The t value with {@code df} degrees of freedom leaving (1 - level) / 2 in each tail. */
    public static double quantile(double level, int df) {
        return new TDistribution(null, df).inverseCumulativeProbability(1 - (1 - level) / 2);
    }

    public static double mean(double[] values) {
        double sum = 0;
        for (double v : values) {
            sum += v;
        }
        return sum / values.length;
    }

    /** Sample variance (N - 1 divisor). */
    public static double variance(double[] values, double mean) {
        double sum = 0;
        for (double v : values) {
            double d = v - mean;
            sum += d * d;
        }
        return sum / (values.length - 1);
    }

    /**
     * A mean with its interval.
     *
     * @param mean      the sample mean
     * @param halfWidth the interval is mean ± halfWidth; NaN when it cannot be computed (N &lt; 2)
     * @param n         number of samples
     */
    public record Interval(double mean, double halfWidth, int n) {

        /** Whether the interval is wider than {@code fraction} of the mean (a warning sign). */
        public boolean widerThan(double fraction) {
            return !Double.isNaN(halfWidth) && mean != 0 && halfWidth > Math.abs(mean) * fraction;
        }
    }
}
