package io.nbench.report.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.report.json.ResultDocument;
import io.nbench.stats.LatencyHistograms;
import io.nbench.stats.LogRatio;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

    @Test
    void malformedGatesNameWhatIsWrong() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Gate.higher("p99")).getMessage()
                .contains("expected METRIC:PCT"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Gate.higher("throughput:5")).getMessage()
                .contains("one of p50, p90, p99, p99.9, max"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Gate.higher("p99:x")).getMessage()
                .contains("is not a percentage"));
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
        List<Gate.Verdict> verdicts = new ArrayList<>(Gate.slower(10).judge(blocks));
        verdicts.addAll(Gate.higher("p50:60").judge(blocks));
        assertEquals(2, verdicts.size());
        assertTrue(verdicts.get(0).breached());
        assertFalse(verdicts.get(1).breached());
        assertEquals("--fail-if-slower 10 breached: impl=netty: B throughput is 0.832 [0.812, 0.853] times the "
                + "baseline's, beyond 0.900", verdicts.get(0).describe("B"));

        StringWriter json = new StringWriter();
        CompareFormats.json(new PrintWriter(json), FILES, blocks, verdicts, 3);
        JsonNode doc = ResultDocument.MAPPER.readTree(json.toString());
        assertEquals(List.of("base.json", "new.json"), List.of(doc.get("files").get(0).asText(),
                doc.get("files").get(1).asText()));
        assertEquals(0.999, doc.get("level").asDouble());
        JsonNode p50 = doc.get("combinations").get(0).get("metrics").get(1);
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
        CompareFormats.markdown(new PrintWriter(md), FILES, blocks, verdicts);
        List<String> lines = md.toString().lines().toList();
        assertTrue(lines.contains("- A: `base.json`"), md.toString());
        assertTrue(lines.contains("#### `impl=netty`"), md.toString());
        assertTrue(lines.contains("| throughput | 120,160 msg/s | 100,000 msg/s | 0.832 [0.812, 0.853] | **slower** |"),
                md.toString());
        assertEquals("- :x: --fail-if-slower 10 breached: impl=netty: B throughput is 0.832 [0.812, 0.853] times the "
                + "baseline's, beyond 0.900", lines.get(lines.size() - 1));
    }
}
