package io.nbench.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.math3.stat.inference.TTest;
import org.junit.jupiter.api.Test;

class WelchTest {

    @Test
    void intervalExcludesZeroExactlyWhenCommonsMathRejectsAtTheSameLevel() {
        double[][][] cases = {
            {{100, 102, 98, 101, 99}, {110, 111, 109, 112, 108}},
            {{100, 102, 98, 101, 99}, {100.5, 103, 97, 101, 99.5}},
            {{10, 30, 20, 25, 15, 22}, {21, 19, 20.5}},
            {{1, 2, 3}, {2, 3, 4, 5, 6, 7, 8}},
        };
        for (double[][] c : cases) {
            Welch.Difference d = Welch.difference(c[0], c[1], 0.999);
            double p = new TTest().tTest(c[0], c[1]);
            assertEquals(p < 0.001, d.significant(), "p=" + p + " d=" + d);
        }
    }

    @Test
    void means() {
        Welch.Difference d = Welch.difference(new double[] {100, 102, 98, 101, 99}, new double[] {110, 111, 109, 112, 108}, 0.999);
        assertEquals(100, d.meanA(), 1e-9);
        assertEquals(110, d.meanB(), 1e-9);
        assertEquals(10, d.diff(), 1e-9);
    }

    @Test
    void fewerThanTwoIterationsGiveNoInterval() {
        Welch.Difference d = Welch.difference(new double[] {1}, new double[] {2, 3}, 0.999);
        assertTrue(Double.isNaN(d.halfWidth()));
        assertFalse(d.significant());
    }
}
