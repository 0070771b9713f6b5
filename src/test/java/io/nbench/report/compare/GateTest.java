package io.nbench.report.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.report.json.ResultDocument;
import io.nbench.stats.LatencyHistograms;
import io.nbench.stats.LogRatio;
import java.io.BufferedWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * {@code compare}'s gates at their bounds (breached only when the whole interval lies beyond), their parsing, and
 * the json and markdown forms of a comparison whose intervals are known (pinned against scipy in
 * CompareVerdictTest: 0.832 [0.812, 0.853]).
 */
class GateTest {

    private static Comparison.Cell cell(double ratio, double low, double high) {
        return new Comparison.Cell(1, 5, 5, new LogRatio.Ratio(ratio, low, high, 8), Comparison.Verdict.SAME);
    }

    @Test
    void throughputIsBreachedOnlyWhenTheWholeIntervalIsBelowTheBound() {
        Gate g = Gate.slower(10);
        assertEquals(0.9, g.bound(), 1e-12);
        assertTrue(g.throughput());
        assertTrue(g.breachedBy(cell(0.85, 0.80, 0.899)));
        assertFalse(g.breachedBy(cell(0.85, 0.80, 0.9)), "an interval reaching the bound");
        assertFalse(g.breachedBy(cell(0.85, 0.80, 0.95)));
        assertFalse(g.breachedBy(cell(1.2, 1.1, 1.3)));
        assertFalse(g.breachedBy(null), "no partner");
        assertFalse(g.breachedBy(new Comparison.Cell(1, 1, 1, new LogRatio.Ratio(0.5, Double.NaN, Double.NaN, 0),
                Comparison.Verdict.TOO_FEW)), "no interval with N = 1");
        assertFalse(g.breachedBy(new Comparison.Cell(1, 5, 5, null, Comparison.Verdict.NO_VALUE)), "no ratio");
        assertEquals("--fail-if-slower 10", g.expression());
        assertEquals("--fail-if-slower 2.5", Gate.slower(2.5).expression());
    }

    @Test
    void latencyIsBreachedOnlyWhenTheWholeIntervalIsAboveTheBound() {
        Gate g = Gate.higher("p99.9:25%");
        assertEquals("p99.9", g.metric());
        assertFalse(g.throughput());
        assertEquals(1.25, g.bound(), 1e-12);
        assertTrue(g.breachedBy(cell(1.4, 1.251, 1.6)));
        assertFalse(g.breachedBy(cell(1.4, 1.25, 1.6)), "an interval reaching the bound");
        assertFalse(g.breachedBy(cell(0.5, 0.4, 0.6)));
        assertEquals("--fail-if-higher p99.9:25", g.expression());
        assertEquals(1.0, Gate.higher("max:0").bound(), 1e-12);
    }

    /**
     * Judged: breached, or held on an interval from at least 5 iterations a side. Fewer iterations, no ratio, no
     * partner: not judged, so not passed (before, only a TOO_FEW verdict was unjudged and everything else passed).
     */
    @Test
    void aGateIsJudgedOnlyOnEnoughEvidence() {
        Gate g = Gate.slower(10);
        BiFunction<Integer, double[], Gate.Verdict> verdict = (n, r) -> {
            Comparison.Cell c = new Comparison.Cell(1, n, n, new LogRatio.Ratio(r[0], r[1], r[2], 8),
                    Comparison.Verdict.SLOWER);
            return new Gate.Verdict(g, "impl=netty", 1, "impl=netty", c, g.breachedBy(c));
        };
        assertTrue(verdict.apply(5, new double[] {0.95, 0.93, 0.97}).judged(), "held on N=5");
        assertFalse(verdict.apply(4, new double[] {0.95, 0.93, 0.97}).judged(), "significant, but N=4 and held");
        assertEquals("N=4: too few iterations to decide; use --iterations ≥ 5 or --forks",
                verdict.apply(4, new double[] {0.95, 0.93, 0.97}).whyNotJudged("B"));
        assertTrue(verdict.apply(2, new double[] {0.5, 0.4, 0.6}).judged(), "a breach is a judgement whatever N");
        Gate.Verdict missing = new Gate.Verdict(g, "impl=netty", 1, null, null, false);
        assertFalse(missing.judged());
        assertEquals("--fail-if-slower 10 not judged for impl=netty in b.json: the combination is not in b.json",
                missing.describeNotJudged("b.json"));
        Gate.Verdict nothing = new Gate.Verdict(g, "impl=netty", 1, "impl=netty",
                new Comparison.Cell(0, 5, 5, null, Comparison.Verdict.NO_VALUE), false);
        assertEquals("n/a: an iteration's figure is 0 (no message completed, or CPU time under the OS's 10 ms clock tick)", nothing.whyNotJudged("b.json"));
        // A first file without combinations: each other file's gate is there, unjudged.
        List<Gate.Verdict> none = g.judge(List.of(), 3);
        assertEquals(2, none.size());
        assertEquals("--fail-if-slower 10 not judged in c.json: the first file has no combination to compare",
                none.get(1).describeNotJudged("c.json"));
    }

    @Test
    void malformedGatesNameWhatIsWrong() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Gate.higher("p99")).getMessage()
                .contains("expected METRIC:PCT"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Gate.higher("throughput:5")).getMessage()
                .contains("one of mean, p50, p90, p99, p99.9, max"));
        assertEquals("--fail-if-higher p99:x: 'x' is not a percentage",
                assertThrows(IllegalArgumentException.class, () -> Gate.higher("p99:x")).getMessage());
        assertEquals("--fail-if-higher :10: unknown metric '' (one of mean, p50, p90, p99, p99.9, max)",
                assertThrows(IllegalArgumentException.class, () -> Gate.higher(":10")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> Gate.higher("p99:-1"));
        assertThrows(IllegalArgumentException.class, () -> Gate.slower(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> Gate.slower(Double.POSITIVE_INFINITY));
        assertEquals(0.0, Gate.slower(0).percent());
    }

    private static ResultFile file(String path, double[] msgPerSec, long[] latencyNs) {
        List<ResultFile.IterationData> its = new ArrayList<>();
        for (int i = 0; i < msgPerSec.length; i++) {
            Histogram h = LatencyHistograms.newHistogram();
            h.recordValueWithCount(latencyNs[i], 10);
            its.add(new ResultFile.IterationData(msgPerSec[i], h));
        }
        return new ResultFile(Path.of(path), List.of(new ResultFile.CombinationData("impl=netty", Map.of("impl", "netty"),
                its)));
    }

    private static final List<ResultFile> FILES = List.of(
            file("base.json", new double[] {120_000, 121_500, 119_000, 120_500, 119_800},
                    new long[] {100_000, 101_000, 99_000, 100_500, 99_500}),
            file("new.json", new double[] {100_000, 101_000, 99_000, 100_500, 99_500},
                    new long[] {150_000, 152_000, 148_000, 151_000, 149_000}));

    @Test
    void judgedGatesAndTheirJsonAndMarkdown() throws Exception {
        List<Comparison.Block> blocks = Comparison.compare(FILES);
        List<Gate.Verdict> verdicts = new ArrayList<>(Gate.slower(10).judge(blocks, FILES.size()));
        verdicts.addAll(Gate.higher("p50:60").judge(blocks, FILES.size()));
        assertEquals(2, verdicts.size());
        assertTrue(verdicts.get(0).breached());
        assertFalse(verdicts.get(1).breached());
        assertEquals("--fail-if-slower 10 breached: impl=netty: B throughput is 0.832 [0.812, 0.853] times the "
                + "baseline's, beyond 0.900", verdicts.get(0).describe("B"));

        StringWriter json = new StringWriter();
        CompareFormats.json(new PrintWriter(json), new Sides.Files(FILES), blocks, verdicts, 3, List.of());
        JsonNode doc = ResultDocument.MAPPER.readTree(json.toString());
        assertEquals(List.of("base.json", "new.json"), List.of(doc.get("files").get(0).asText(),
                doc.get("files").get(1).asText()));
        assertEquals(0.999, doc.get("level").asDouble());
        JsonNode p50 = doc.get("combinations").get(0).get("metrics").get(2);
        assertEquals("p50", p50.get("metric").asText());
        assertEquals("ns", p50.get("unit").asText());
        assertFalse(p50.get("higherIsBetter").asBoolean());
        assertEquals(100_000, p50.get("baseline").get("mean").asDouble(), 200);
        assertEquals(5, p50.get("baseline").get("n").asInt());
        assertEquals("slower", p50.get("others").get(0).get("verdict").asText());
        assertEquals("new.json", doc.get("gates").get(1).get("file").asText());
        assertEquals("impl=netty", doc.get("gates").get(1).get("combination").asText());
        assertFalse(doc.get("gates").get(1).get("breached").asBoolean());
        assertEquals(1.6, doc.get("gates").get(1).get("bound").asDouble(), 1e-12);
        assertEquals(3, doc.get("exitCode").asInt());

        StringWriter md = new StringWriter();
        CompareFormats.markdown(new PrintWriter(md), new Sides.Files(FILES), blocks, verdicts, List.of());
        List<String> lines = md.toString().lines().toList();
        assertTrue(lines.contains("- A: `base.json`"), md.toString());
        assertTrue(lines.contains("#### `impl=netty`"), md.toString());
        assertTrue(lines.contains("| throughput | 120,160 msg/s | 100,000 msg/s | 0.832 [0.812, 0.853] | **slower** |"),
                md.toString());
        assertEquals("- :x: `--fail-if-slower 10` breached for `impl=netty`: B throughput is 0.832 [0.812, 0.853] "
                + "times A's, beyond 0.900", lines.get(lines.size() - 1));
    }

    /** More files: one iteration of the same combination (no interval), and no partner at all. */
    private static final List<ResultFile> THREE = List.of(FILES.get(0), FILES.get(1),
            file("one.json", new double[] {60_000}, new long[] {200_000}),
            new ResultFile(Path.of("other|file.json"), List.of(
                    new ResultFile.CombinationData("impl=nio", Map.of("impl", "nio"), List.of()),
                    new ResultFile.CombinationData("impl=mina", Map.of("impl", "mina"), List.of()))));

    @Test
    void aRenamedPartnerIsNamedInTheHeading() {
        ResultFile a = file("a.json", new double[] {1, 2}, new long[] {1000, 1000});
        ResultFile b = new ResultFile(Path.of("b.json"), List.of(new ResultFile.CombinationData("impl=nio",
                Map.of("impl", "nio"), a.combinations().get(0).iterations())));
        StringWriter md = new StringWriter();
        CompareFormats.markdown(new PrintWriter(md), new Sides.Files(List.of(a, b)), Comparison.compare(List.of(a, b)), List.of(), List.of());
        assertTrue(md.toString().contains("\n#### `impl=netty` (B: `impl=nio`)\n"), md.toString());
    }

    @Test
    void wholeMarkdown() {
        List<Comparison.Block> blocks = Comparison.compare(THREE);
        StringWriter md = new StringWriter();
        List<Gate.Verdict> verdicts = Gate.higher("max:100").judge(blocks, THREE.size());
        CompareFormats.markdown(new PrintWriter(new BufferedWriter(md)), new Sides.Files(THREE), blocks, verdicts, List.of());
        assertEquals(WHOLE_MARKDOWN, md.toString());
    }

    @Test
    void wholeJson() {
        List<Comparison.Block> blocks = Comparison.compare(THREE);
        StringWriter json = new StringWriter();
        CompareFormats.json(new PrintWriter(new BufferedWriter(json)), new Sides.Files(THREE), blocks, List.of(), 0, List.of());
        assertEquals(sixDigits(WHOLE_JSON), sixDigits(json.toString()));
    }

    /** Decimals cut to six digits: Math.log may differ in the last bit between JVMs and JIT tiers. */
    private static String sixDigits(String json) {
        return json.replaceAll("(\\d\\.\\d{6})\\d+", "$1");
    }

    private static final String WHOLE_MARKDOWN = """
            ### nbench compare
            
            Per-iteration means of measured iterations; ratio to A (of geometric means) with its 99.9% CI (Welch's t on log values); latency: lower is faster.
            
            - A: `base.json`
            - B: `new.json`
            - C: `one.json`
            - D: `other|file.json`
            
            #### `impl=netty` (not in D)
            
            | metric | A | B | B/A [99.9% CI] | verdict | C | C/A [99.9% CI] | verdict | D | D/A [99.9% CI] | verdict |
            | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
            | throughput | 120,160 msg/s | 100,000 msg/s | 0.832 [0.812, 0.853] | **slower** | 60,000 msg/s | 0.499 | N=1: too few iterations to decide; use --iterations ≥ 5 or --forks | - | - | - |
            | mean | 100 µs | 150 µs | 1.500 [1.455, 1.547] | **slower** | 200 µs | 2.000 | N=1: too few iterations to decide; use --iterations ≥ 5 or --forks | - | - | - |
            | p50 | 100 µs | 150 µs | 1.500 [1.455, 1.547] | **slower** | 200 µs | 2.000 | N=1: too few iterations to decide; use --iterations ≥ 5 or --forks | - | - | - |
            | p90 | 100 µs | 150 µs | 1.500 [1.455, 1.547] | **slower** | 200 µs | 2.000 | N=1: too few iterations to decide; use --iterations ≥ 5 or --forks | - | - | - |
            | p99 | 100 µs | 150 µs | 1.500 [1.455, 1.547] | **slower** | 200 µs | 2.000 | N=1: too few iterations to decide; use --iterations ≥ 5 or --forks | - | - | - |
            | p99.9 | 100 µs | 150 µs | 1.500 [1.455, 1.547] | **slower** | 200 µs | 2.000 | N=1: too few iterations to decide; use --iterations ≥ 5 or --forks | - | - | - |
            | max | 100 µs | 150 µs | 1.500 [1.455, 1.547] | **slower** | 200 µs | 2.000 | N=1: too few iterations to decide; use --iterations ≥ 5 or --forks | - | - | - |
            
            No gate breached, but not every gate could be judged (below): `--fail-if-higher max:100`.
            - :warning: `--fail-if-higher max:100` not judged for `impl=netty` in C: N=1: too few iterations to decide; use --iterations ≥ 5 or --forks
            - :warning: `--fail-if-higher max:100` not judged for `impl=netty` in D: the combination is not in D
            """;
    private static final String WHOLE_JSON = """
            {
              "schema" : "nbench-compare/1",
              "level" : 0.999,
              "files" : [ "base.json", "new.json", "one.json", "other|file.json" ],
              "baseline" : null,
              "combinations" : [ {
                "name" : "impl=netty",
                "matched" : [ "impl=netty", "impl=netty", null ],
                "metrics" : [ {
                  "metric" : "throughput",
                  "unit" : "msg/s",
                  "higherIsBetter" : true,
                  "baseline" : {
                    "mean" : 120160.0,
                    "n" : 5
                  },
                  "others" : [ {
                    "mean" : 100000.0,
                    "n" : 5,
                    "ratio" : 0.8322225361992235,
                    "low" : 0.811790159141025,
                    "high" : 0.8531691865921593,
                    "verdict" : "slower",
                    "verdictText" : "slower"
                  }, {
                    "mean" : 60000.0,
                    "n" : 1,
                    "ratio" : 0.49934600574421006,
                    "low" : null,
                    "high" : null,
                    "verdict" : "too_few",
                    "verdictText" : "N=1: too few iterations to decide; use --iterations ≥ 5 or --forks"
                  }, null ]
                }, {
                  "metric" : "mean",
                  "unit" : "ns",
                  "higherIsBetter" : false,
                  "baseline" : {
                    "mean" : 100000.0,
                    "n" : 5
                  },
                  "others" : [ {
                    "mean" : 150003.2,
                    "n" : 5,
                    "ratio" : 1.5000065387386312,
                    "low" : 1.4548384202743028,
                    "high" : 1.5465769840161483,
                    "verdict" : "slower",
                    "verdictText" : "slower"
                  }, {
                    "mean" : 200000.0,
                    "n" : 1,
                    "ratio" : 2.0000524318238786,
                    "low" : null,
                    "high" : null,
                    "verdict" : "too_few",
                    "verdictText" : "N=1: too few iterations to decide; use --iterations ≥ 5 or --forks"
                  }, null ]
                }, {
                  "metric" : "p50",
                  "unit" : "ns",
                  "higherIsBetter" : false,
                  "baseline" : {
                    "mean" : 100031.0,
                    "n" : 5
                  },
                  "others" : [ {
                    "mean" : 150066.2,
                    "n" : 5,
                    "ratio" : 1.500171504903918,
                    "low" : 1.4550163495567245,
                    "high" : 1.546728010864835,
                    "verdict" : "slower",
                    "verdictText" : "slower"
                  }, {
                    "mean" : 200063.0,
                    "n" : 1,
                    "ratio" : 2.0000623964922664,
                    "low" : null,
                    "high" : null,
                    "verdict" : "too_few",
                    "verdictText" : "N=1: too few iterations to decide; use --iterations ≥ 5 or --forks"
                  }, null ]
                }, {
                  "metric" : "p90",
                  "unit" : "ns",
                  "higherIsBetter" : false,
                  "baseline" : {
                    "mean" : 100031.0,
                    "n" : 5
                  },
                  "others" : [ {
                    "mean" : 150066.2,
                    "n" : 5,
                    "ratio" : 1.500171504903918,
                    "low" : 1.4550163495567245,
                    "high" : 1.546728010864835,
                    "verdict" : "slower",
                    "verdictText" : "slower"
                  }, {
                    "mean" : 200063.0,
                    "n" : 1,
                    "ratio" : 2.0000623964922664,
                    "low" : null,
                    "high" : null,
                    "verdict" : "too_few",
                    "verdictText" : "N=1: too few iterations to decide; use --iterations ≥ 5 or --forks"
                  }, null ]
                }, {
                  "metric" : "p99",
                  "unit" : "ns",
                  "higherIsBetter" : false,
                  "baseline" : {
                    "mean" : 100031.0,
                    "n" : 5
                  },
                  "others" : [ {
                    "mean" : 150066.2,
                    "n" : 5,
                    "ratio" : 1.500171504903918,
                    "low" : 1.4550163495567245,
                    "high" : 1.546728010864835,
                    "verdict" : "slower",
                    "verdictText" : "slower"
                  }, {
                    "mean" : 200063.0,
                    "n" : 1,
                    "ratio" : 2.0000623964922664,
                    "low" : null,
                    "high" : null,
                    "verdict" : "too_few",
                    "verdictText" : "N=1: too few iterations to decide; use --iterations ≥ 5 or --forks"
                  }, null ]
                }, {
                  "metric" : "p99.9",
                  "unit" : "ns",
                  "higherIsBetter" : false,
                  "baseline" : {
                    "mean" : 100031.0,
                    "n" : 5
                  },
                  "others" : [ {
                    "mean" : 150066.2,
                    "n" : 5,
                    "ratio" : 1.500171504903918,
                    "low" : 1.4550163495567245,
                    "high" : 1.546728010864835,
                    "verdict" : "slower",
                    "verdictText" : "slower"
                  }, {
                    "mean" : 200063.0,
                    "n" : 1,
                    "ratio" : 2.0000623964922664,
                    "low" : null,
                    "high" : null,
                    "verdict" : "too_few",
                    "verdictText" : "N=1: too few iterations to decide; use --iterations ≥ 5 or --forks"
                  }, null ]
                }, {
                  "metric" : "max",
                  "unit" : "ns",
                  "higherIsBetter" : false,
                  "baseline" : {
                    "mean" : 100031.0,
                    "n" : 5
                  },
                  "others" : [ {
                    "mean" : 150066.2,
                    "n" : 5,
                    "ratio" : 1.500171504903918,
                    "low" : 1.4550163495567245,
                    "high" : 1.546728010864835,
                    "verdict" : "slower",
                    "verdictText" : "slower"
                  }, {
                    "mean" : 200063.0,
                    "n" : 1,
                    "ratio" : 2.0000623964922664,
                    "low" : null,
                    "high" : null,
                    "verdict" : "too_few",
                    "verdictText" : "N=1: too few iterations to decide; use --iterations ≥ 5 or --forks"
                  }, null ]
                } ]
              } ],
              "notCompared" : [ ],
              "gates" : [ ],
              "unjudged" : [ ],
              "notSteady" : [ ],
              "capacities" : [ ],
              "exitCode" : 0
            }
            """;
}
