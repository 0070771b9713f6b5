package io.nbench.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Every interval figure pinned to values computed independently with scipy 1.17 (the script is in each
 * comment), with standard errors far from 1 and cases on both sides of the 0.001 boundary, so a wrong
 * quantile, level, degrees of freedom or standard error fails.
 */
class ReferenceValuesTest {

    private static void close(double expected, double actual) {
        assertEquals(expected, actual, Math.abs(expected) * 1e-9, () -> "expected " + expected + " got " + actual);
    }

    // v = [3.2, 4.7, 5.1, 2.9, 6.3, 4.4]; t = stats.t.ppf(1 - (1 - level) / 2, 5); t * v.std(ddof=1) / sqrt(6)
    private static final double[] V = {3.2, 4.7, 5.1, 2.9, 6.3, 4.4};

    @Test
    void studentTIntervalAtTwoLevels() {
        StudentT.Interval ci = StudentT.interval(V);
        close(4.433333333333334, ci.mean());
        close(3.5188539881484386, ci.halfWidth());
        assertEquals(6, ci.n());
        close(1.316891899718059, StudentT.interval(V, 0.95).halfWidth());
        close(6.868826625881276, StudentT.quantile(0.999, 5));
        close(2.5705818356363146, StudentT.quantile(0.95, 5));
    }

    @Test
    void studentTIntervalWidthWarning() {
        StudentT.Interval ci = new StudentT.Interval(100, 10, 5);
        assertTrue(ci.widerThan(0.099));
        assertFalse(ci.widerThan(0.1), "exactly 10 % is not wider than 10 %");
        assertTrue(new StudentT.Interval(-100, 10, 5).widerThan(0.099), "a negative mean is compared by its size");
        assertFalse(new StudentT.Interval(0, 10, 5).widerThan(0.1), "no relative width around 0");
        assertTrue(Double.isNaN(StudentT.interval(new double[0]).mean()));
        assertEquals(0, StudentT.interval(new double[0]).n());
        assertEquals(1, StudentT.interval(new double[] {5}).n());
    }

    // a = [10.0, 10.4, 9.7, 10.2, 9.9]; r = stats.ttest_ind(b, a, equal_var=False)
    private static final double[] A = {10.0, 10.4, 9.7, 10.2, 9.9};
    // p = 0.001074811 (just not significant at 0.001)
    private static final double[] JUST_NOT = {11.31, 10.41, 11.81, 11.11, 10.81, 11.51, 10.61};
    // p = 0.000943345 (just significant)
    private static final double[] JUST = {11.33, 10.43, 11.83, 11.13, 10.83, 11.53, 10.63};

    @Test
    void welchOnBothSidesOfThePointOneThousandthBoundary() {
        Welch.Difference no = Welch.difference(A, JUST_NOT, 0.999);
        close(9.50521099192811, no.df());
        close(1.0414285714285736, no.diff());
        // (ci.high - ci.low) / 2 of r.confidence_interval(0.999)
        close(1.0524663513867218, no.halfWidth());
        assertFalse(no.significant(), no.toString());

        Welch.Difference yes = Welch.difference(A, JUST, 0.999);
        close(9.50521099192811, yes.df());
        close(1.0614285714285714, yes.diff());
        close(1.0524663513867218, yes.halfWidth());
        assertTrue(yes.significant(), yes.toString());

        // At 99.6 % (what (1 - level) * 2 would compute) the half-width is 0.8487: distinct.
        close(0.8487010358956049, Welch.difference(A, JUST_NOT, 0.996).halfWidth());
    }

    @Test
    void welchIsSymmetricAndSignedBToA() {
        Welch.Difference ab = Welch.difference(A, JUST, 0.999);
        Welch.Difference ba = Welch.difference(JUST, A, 0.999);
        close(-ab.diff(), ba.diff());
        close(ab.halfWidth(), ba.halfWidth());
        assertTrue(ba.significant(), "a significant negative difference is significant");
        close(10.04, ab.meanA());
        close(77.71 / 7, ab.meanB());
    }

    @Test
    void welchWithConstantSamples() {
        Welch.Difference d = Welch.difference(new double[] {5, 5, 5}, new double[] {6, 6}, 0.999);
        assertEquals(0, d.halfWidth());
        assertTrue(Double.isNaN(d.df()));
        assertTrue(d.significant(), "both constant: any difference is real");
        assertFalse(Welch.difference(new double[] {5, 5}, new double[] {5, 5}, 0.999).significant(), "no difference");
        assertTrue(Double.isNaN(Welch.difference(new double[] {1, 2}, new double[] {2}, 0.999).df()));
    }

    // A, B below; r = stats.ttest_ind(log(B), log(A), equal_var=False); exp(r.confidence_interval(0.999))
    private static final double[] TA = {100_000, 101_000, 99_000, 100_500, 99_500};
    private static final double[] TB = {120_000, 121_500, 119_000, 120_500, 119_800};

    @Test
    void logRatioAgainstScipy() {
        LogRatio.Ratio r = LogRatio.of(TA, TB, 0.999);
        close(1.2016016828467773, r.ratio());
        close(1.1721004646151505, r.low());
        close(1.231845432886406, r.high());
        close(7.9932074393804715, r.df());
        assertTrue(r.hasInterval());
        assertTrue(r.significant());
        LogRatio.Ratio back = LogRatio.of(TB, TA, 0.999);
        close(1 / 1.2016016828467773, back.ratio());
        close(1 / 1.231845432886406, back.low());
        close(1 / 1.1721004646151505, back.high());
        assertTrue(back.significant());
    }

    @Test
    void logRatioOfTheIssuesCasesStaysPositive() {
        // [1000, 1300, 700] vs [3500, 3600, 3400]: ratio 3.6107938156, CI [0.0157733209, 826.5749539920], df 2.0338
        LogRatio.Ratio r = LogRatio.of(new double[] {1000, 1300, 700}, new double[] {3500, 3600, 3400}, 0.999);
        close(3.610793815577754, r.ratio());
        assertEquals(0.01577332087749178, r.low(), 1e-12);
        assertEquals(826.5749539920464, r.high(), 1e-7);
        close(2.0338403883414817, r.df());
        assertFalse(r.significant());
    }

    @Test
    void logRatioEdges() {
        LogRatio.Ratio one = LogRatio.of(new double[] {4}, new double[] {2, 8}, 0.999);
        close(1.0, one.ratio()); // geometric mean of 2 and 8 is 4
        assertFalse(one.hasInterval());
        assertFalse(one.significant());
        assertTrue(Double.isNaN(one.high()));
        LogRatio.Ratio constant = LogRatio.of(new double[] {5, 5}, new double[] {10, 10}, 0.999);
        close(2.0, constant.low());
        close(2.0, constant.high());
        assertTrue(constant.significant());
        assertTrue(LogRatio.of(new double[] {10, 10}, new double[] {5, 5}, 0.999).significant(), "below 1 too");
        assertFalse(LogRatio.of(new double[] {5, 5}, new double[] {5, 5}, 0.999).significant());
        assertTrue(LogRatio.defined(new double[] {1e-300, 1e300}));
        assertFalse(LogRatio.defined(new double[] {1, 0}));
        assertFalse(LogRatio.defined(new double[] {-1}));
        assertFalse(LogRatio.defined(new double[] {Double.NaN}));
        assertFalse(LogRatio.defined(new double[] {Double.POSITIVE_INFINITY}));
        assertThrows(IllegalArgumentException.class, () -> LogRatio.of(new double[] {1, 2}, new double[] {0, 1}, 0.999));
        assertThrows(IllegalArgumentException.class, () -> LogRatio.of(new double[] {0, 2}, new double[] {1, 1}, 0.999));
    }
}
