package io.nbench.report.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.stats.LatencyHistograms;
import java.io.BufferedWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * The whole {@code nbench compare} table for files whose per-iteration figures are known: matching by keys
 * across several combinations, missing and renamed partners, each verdict, and the exact intervals (the
 * ratios and bounds are checked against scipy in CompareVerdictTest and ReferenceValuesTest).
 */
class CompareTableTest {

    private static ResultFile.CombinationData combination(String name, Map<String, String> keys, double[] msgPerSec,
                                                          double[] latencyMicros) {
        List<ResultFile.IterationData> its = new ArrayList<>();
        for (int i = 0; i < msgPerSec.length; i++) {
            Histogram h = LatencyHistograms.newHistogram();
            h.recordValue((long) (latencyMicros[i] * 1000));
            its.add(new ResultFile.IterationData(msgPerSec[i], h));
        }
        return new ResultFile.CombinationData(name, keys, its);
    }

    private static final Map<String, String> X = Map.of("impl", "netty", "size", "1");
    private static final Map<String, String> Y = Map.of("impl", "netty", "size", "2");

    /** Through a buffered writer, as the CLI's is: the table must flush what it printed. */
    private static String print(List<ResultFile> files) {
        StringWriter s = new StringWriter();
        CompareTable.print(new PrintWriter(new BufferedWriter(s)), files, Comparison.compare(files));
        return s.toString();
    }

    @Test
    void oneIterationEachGivesARatioWithoutInterval() {
        ResultFile a = new ResultFile(Path.of("a"), List.of(combination("x", X, new double[] {100}, new double[] {10})));
        ResultFile b = new ResultFile(Path.of("b"), List.of(combination("x", X, new double[] {200}, new double[] {10})));
        String throughput = print(List.of(a, b)).lines().filter(l -> l.startsWith("throughput")).findFirst().orElseThrow();
        assertEquals("throughput  100 msg/s  200 msg/s  2.000           N=1: too few iterations to decide; use --iterations ≥ 5 "
                + "or --forks", throughput);
    }

    @Test
    void boundsOfHopelessIntervalsInScientificNotation() {
        assertEquals("0.001", CompareTable.number(0.001));
        assertEquals("9.99e-04", CompareTable.number(0.000999));
        assertEquals("9999.999", CompareTable.number(9999.999));
        assertEquals("1.00e+04", CompareTable.number(10_000));
        assertEquals("6.40e-20", CompareTable.number(6.395553653684548e-20));
    }

    @Test
    void threeFilesSideBySide() {
        double[] base = {100_000, 101_000, 99_000, 100_500, 99_500};
        ResultFile a = new ResultFile(Path.of("a.json"), List.of(
                combination("impl=netty,size=1", X, base, new double[] {100, 101, 99, 100.5, 99.5}),
                combination("impl=netty,size=2", Y, new double[] {0, 5}, new double[] {7, 8})));
        ResultFile b = new ResultFile(Path.of("b.json"), List.of(
                combination("impl=mina", Map.of("impl", "mina"), base, base),
                combination("impl=netty,size=1", X, new double[] {120_000, 121_500, 119_000, 120_500, 119_800},
                        new double[] {150, 152, 148, 151, 149})));
        ResultFile c = new ResultFile(Path.of("c.json"), List.of(
                combination("renamed", X, new double[] {100_200, 100_800, 99_100, 100_400, 99_600},
                        new double[] {100.2, 100.8, 99.1, 100.4, 99.6}),
                combination("impl=netty,size=2", Y, new double[0], new double[0])));
        // B matches A's first combination by keys although it lists another first; C's has another name.
        String expected = String.join("\n",
                "nbench compare: per-iteration means of measured iterations; ratio to A (of geometric means) with its 99.9% CI (Welch's t on log values); latency: lower is faster",
                "  A: a.json",
                "  B: b.json",
                "  C: c.json",
                "",
                "impl=netty,size=1  (C: renamed)",
                "metric      A              B              B/A [99.9% CI]        verdict  C              C/A [99.9% CI]        verdict",
                "throughput  100,000 msg/s  120,160 msg/s  1.202 [1.172, 1.232]  faster   100,020 msg/s  1.000 [0.977, 1.024]  no significant difference",
                "mean        100 µs         150 µs         1.500 [1.455, 1.547]  slower   100 µs         1.000 [0.976, 1.025]  no significant difference",
                "p50         100 µs         150 µs         1.500 [1.455, 1.547]  slower   100 µs         1.000 [0.976, 1.025]  no significant difference",
                "p90         100 µs         150 µs         1.500 [1.455, 1.547]  slower   100 µs         1.000 [0.976, 1.025]  no significant difference",
                "p99         100 µs         150 µs         1.500 [1.455, 1.547]  slower   100 µs         1.000 [0.976, 1.025]  no significant difference",
                "p99.9       100 µs         150 µs         1.500 [1.455, 1.547]  slower   100 µs         1.000 [0.976, 1.025]  no significant difference",
                "max         100 µs         150 µs         1.500 [1.455, 1.547]  slower   100 µs         1.000 [0.976, 1.025]  no significant difference",
                "",
                "impl=netty,size=2  (not in B)",
                "metric      A        B  B/A [99.9% CI]  verdict  C  C/A [99.9% CI]  verdict",
                "throughput  3 msg/s  -  -               -        -  -               n/a: an iteration's figure is 0 (no message completed, or CPU time under the OS's 10 ms clock tick)",
                "mean        7.5 µs   -  -               -        -  -               N=0: too few iterations to decide; use --iterations ≥ 5 or --forks",
                "p50         7.5 µs   -  -               -        -  -               N=0: too few iterations to decide; use --iterations ≥ 5 or --forks",
                "p90         7.5 µs   -  -               -        -  -               N=0: too few iterations to decide; use --iterations ≥ 5 or --forks",
                "p99         7.5 µs   -  -               -        -  -               N=0: too few iterations to decide; use --iterations ≥ 5 or --forks",
                "p99.9       7.5 µs   -  -               -        -  -               N=0: too few iterations to decide; use --iterations ≥ 5 or --forks",
                "max         7.5 µs   -  -               -        -  -               N=0: too few iterations to decide; use --iterations ≥ 5 or --forks") + "\n";
        assertEquals(expected, print(List.of(a, b, c)).replace(System.lineSeparator(), "\n"));
    }

    /** Two files of one combination each: matched whatever their keys (baseline against candidate). */
    @Test
    void verdictsAtTheDecisiveN() {
        double[] five = {100, 101, 99, 100.5, 99.5};
        double[] fiveOther = {100.2, 100.8, 99.1, 100.4, 99.6};
        assertEquals(Comparison.Verdict.SAME, verdict(five, fiveOther), "N=5: not significant is no difference");
        double[] four = {100, 101, 99, 100.5};
        assertEquals(Comparison.Verdict.TOO_FEW, verdict(four, fiveOther), "N=4: too few to decide");
        assertEquals(Comparison.Verdict.FASTER, verdict(new double[] {100, 100}, new double[] {200, 200}),
                "significant with N=2: a verdict whatever N");
        assertEquals(Comparison.Verdict.SLOWER, verdict(new double[] {200, 200}, new double[] {100, 100}));
    }

    private static Comparison.Verdict verdict(double[] a, double[] b) {
        ResultFile fa = new ResultFile(Path.of("a"), List.of(combination("a", Map.of("k", "a"), a, a)));
        ResultFile fb = new ResultFile(Path.of("b"), List.of(combination("b", Map.of("k", "b"), b, b)));
        Comparison.Block block = Comparison.compare(List.of(fa, fb)).get(0);
        assertEquals(List.of("b"), block.matched());
        Comparison.Row throughput = block.rows().get(0);
        Comparison.Row p50 = block.rows().get(2);
        // Throughput is better higher, latency lower: the same values give opposite verdicts.
        Comparison.Verdict t = throughput.others().get(0).verdict();
        Comparison.Verdict l = p50.others().get(0).verdict();
        if (t == Comparison.Verdict.FASTER || t == Comparison.Verdict.SLOWER) {
            assertEquals(t == Comparison.Verdict.FASTER ? Comparison.Verdict.SLOWER : Comparison.Verdict.FASTER, l);
        } else {
            assertEquals(t, l);
        }
        assertEquals(a.length, throughput.baselineN());
        return t;
    }

    /**
     * CPU is a cost: its verdict says more or less, not faster or slower; the server's row appears only when
     * a file has the figure, and an iteration without it is left out rather than counted as 0.
     */
    @Test
    void cpuRowsSayMoreOrLessAndAppearOnlyWithTheFigure() {
        Histogram h = LatencyHistograms.newHistogram();
        h.recordValue(10_000);
        List<ResultFile.IterationData> a = new ArrayList<>();
        List<ResultFile.IterationData> b = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            a.add(new ResultFile.IterationData(100 + i, h, 50 + i, i == 2 ? Double.NaN : 100 + i));
            b.add(new ResultFile.IterationData(100 + i, h, 25 + i, 200 + i));
        }
        ResultFile fa = new ResultFile(Path.of("a"), List.of(new ResultFile.CombinationData("c", X, a)));
        ResultFile fb = new ResultFile(Path.of("b"), List.of(new ResultFile.CombinationData("c", X, b)));
        List<Comparison.Row> rows = Comparison.compare(List.of(fa, fb)).get(0).rows();
        Comparison.Row client = rows.stream().filter(r -> r.metric().name().equals("client CPU")).findFirst()
                .orElseThrow();
        Comparison.Row server = rows.stream().filter(r -> r.metric().name().equals("server CPU")).findFirst()
                .orElseThrow();
        assertEquals(Comparison.Verdict.LESS, client.others().get(0).verdict());
        assertEquals(Comparison.Verdict.MORE, server.others().get(0).verdict());
        assertEquals(4, server.baselineN(), "the iteration without the server's figure is left out");
        assertTrue(print(List.of(fa, fb)).contains("server CPU  102%"), print(List.of(fa, fb)));

        List<ResultFile.IterationData> plain = List.of(new ResultFile.IterationData(100, h),
                new ResultFile.IterationData(101, h));
        ResultFile pa = new ResultFile(Path.of("a"), List.of(new ResultFile.CombinationData("c", X, plain)));
        assertTrue(Comparison.compare(List.of(pa, pa)).get(0).rows().stream()
                .noneMatch(r -> r.metric().cost()), "no CPU rows without the figures");
    }

    @Test
    void manyFilesAreLetteredBeyondZ() {
        List<ResultFile> files = new ArrayList<>();
        for (int i = 0; i < 27; i++) {
            files.add(new ResultFile(Path.of("f" + i + ".json"), List.of()));
        }
        String out = print(files).replace(System.lineSeparator(), "\n");
        assertEquals(true, out.contains("\n  A: f0.json\n"), out);
        assertEquals(true, out.contains("\n  Z: f25.json\n  F27: f26.json\n"), out);
    }
}
