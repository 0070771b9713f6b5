package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nbench.client.ExitCode;
import io.nbench.protocol.Protocol;
import io.nbench.report.json.ResultDocument;
import io.nbench.stats.HistogramCodec;
import io.nbench.stats.LatencyHistograms;
import io.nbench.testkit.ResultDocs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code nbench compare} as a CI gate, through the real CLI: {@code --fail-if-slower PCT} and
 * {@code --fail-if-higher METRIC:PCT} exit 3 only on a significant regression beyond the bound (the ratio's whole
 * 99.9 % interval beyond it), 0 otherwise; {@code --format json|markdown}. The files are a real run's result
 * document whose measured iterations are given known figures, so the intervals are those pinned against scipy in
 * {@link CompareVerdictTest}: candidate/baseline throughput 0.832 [0.812, 0.853].
 */
class CompareGateTest {

    @TempDir
    Path dir;

    private Path real;
    private Path baseline;
    private Path candidate;

    private static final double[] FAST = {120_000, 121_500, 119_000, 120_500, 119_800};
    private static final double[] SLOW = {100_000, 101_000, 99_000, 100_500, 99_500};
    private static final long[] LOW_LATENCY = {100_000, 101_000, 99_000, 100_500, 99_500};
    private static final long[] HIGH_LATENCY = {150_000, 152_000, 148_000, 151_000, 149_000};

    @BeforeEach
    void files() throws IOException {
        real = dir.resolve("real.json");
        CliTest.Outcome run = CliTest.run("client", "--port", CliTest.port(Protocol.FRAMED), "--threads", "1",
                "--msgs", "50", "--warmup", "1", "--iterations", "5", "--quiet", "--out", real.toString());
        assertEquals(ExitCode.OK, run.code(), run.out() + run.err());
        baseline = craft(real, "baseline.json", FAST, LOW_LATENCY);
        candidate = craft(real, "candidate.json", SLOW, HIGH_LATENCY);
    }

    /** The real document with its measured iterations' throughput and latency (one value each) replaced. */
    private Path craft(Path real, String name, double[] msgPerSec, long[] latencyNs) throws IOException {
        JsonNode doc = ResultDocs.withMeasured(ResultDocs.read(real.toFile()), msgPerSec, latencyNs);
        return Files.writeString(dir.resolve(name), ResultDocument.MAPPER.writeValueAsString(doc));
    }

    private CliTest.Outcome compare(String... options) {
        String[] args = new String[options.length + 3];
        args[0] = "compare";
        System.arraycopy(options, 0, args, 1, options.length);
        args[options.length + 1] = baseline.toString();
        args[options.length + 2] = candidate.toString();
        return CliTest.run(args);
    }

    @Test
    void aThroughputRegressionSignificantlyBeyondTheBoundExits3() {
        CliTest.Outcome o = compare("--fail-if-slower", "10");
        assertEquals(ExitCode.THRESHOLD, o.code(), o.out() + o.err());
        assertEquals(List.of("nbench compare: --fail-if-slower 10 breached: impl=netty,size=1024,threads=1,window=1: "
                + candidate + " throughput is 0.832 [0.812, 0.853] times the baseline's, beyond 0.900"),
                o.err().lines().toList());
        assertTrue(o.out().contains("0.832 [0.812, 0.853]"), o.out());
        // 16.8 % slower, but not significantly beyond 15 %: the interval reaches 0.853 > 0.85.
        assertEquals(ExitCode.OK, compare("--fail-if-slower", "15%").code());
        assertEquals(ExitCode.OK, compare("--fail-if-slower", "20").code());
    }

    @Test
    void aLatencyRegressionSignificantlyBeyondTheBoundExits3() {
        CliTest.Outcome o = compare("--fail-if-higher", "p99:40", "--fail-if-higher", "p50:60");
        assertEquals(ExitCode.THRESHOLD, o.code(), o.out() + o.err());
        assertEquals(1, o.err().lines().count(), o.err());
        assertTrue(o.err().startsWith("nbench compare: --fail-if-higher p99:40 breached: "), o.err());
        assertEquals(ExitCode.OK, compare("--fail-if-higher", "p99:60", "--fail-if-slower", "20").code());
    }

    @Test
    void anImprovementPassesEveryGate() {
        CliTest.Outcome o = CliTest.run("compare", "--fail-if-slower", "0", "--fail-if-higher", "max:0",
                candidate.toString(), baseline.toString());
        assertEquals(ExitCode.OK, o.code(), o.out() + o.err());
        assertEquals("", o.err());
    }

    @Test
    void badGatesAreUsageErrors() {
        for (String[] bad : List.of(new String[] {"--fail-if-higher", "p42:10"}, new String[] {"--fail-if-higher", "p99"},
                new String[] {"--fail-if-higher", "throughput:10"}, new String[] {"--fail-if-slower", "ten"},
                new String[] {"--fail-if-slower", "-5"}, new String[] {"--format", "html"})) {
            CliTest.Outcome o = compare(bad);
            assertEquals(ExitCode.USAGE, o.code(), String.join(" ", bad) + ": " + o.err());
            assertEquals("", o.out());
        }
    }

    @Test
    void tooFewIterationsCannotBreachAGateNorPassItUnlessAllowed() throws IOException {
        JsonNode doc = ResultDocs.read(candidate.toFile());
        var its = (ArrayNode) doc.get("combinations").get(0).get("iterations");
        while (its.size() > 3) { // the warmup and two measured iterations
            its.remove(its.size() - 1);
        }
        Files.writeString(candidate, ResultDocument.MAPPER.writeValueAsString(doc));
        // Latency 1.51 [0.936, 2.435] times the baseline's with N=2: cannot be told from noise. It exited 0.
        CliTest.Outcome o = compare("--fail-if-higher", "p99:1");
        assertEquals(ExitCode.UNJUDGED, o.code(), o.out() + o.err());
        List<String> lines = o.err().lines().toList();
        assertEquals("nbench compare: --fail-if-higher p99:1 not judged for " + COMBINATION + " in " + candidate
                + ": N=2: too few iterations to decide; use --iterations ≥ 5 or --forks", lines.get(0));
        assertEquals("nbench compare: 1 gate check(s) could not be judged, so the gates did not pass (exit 6): "
                + "measure what the lines above name, or add --allow-unjudged to let them pass", lines.get(1));
        assertEquals(2, lines.size(), o.err());
        // The markdown summary said "Gates passed".
        CliTest.Outcome md = compare("--format", "markdown", "--fail-if-higher", "p99:1");
        assertEquals(ExitCode.UNJUDGED, md.code(), md.err());
        assertFalse(md.out().contains("Gates passed"), md.out());
        assertTrue(md.out().contains("- :warning: `--fail-if-higher p99:1` not judged for `" + COMBINATION + "` in B: "
                + "N=2: too few iterations to decide"), md.out());

        CliTest.Outcome allowed = compare("--allow-unjudged", "--fail-if-higher", "p99:1");
        assertEquals(ExitCode.OK, allowed.code(), allowed.err());
        assertEquals(List.of(lines.get(0)), allowed.err().lines().toList(), "still named, but not failing");
    }

    private static final String COMBINATION = "impl=netty,size=1024,threads=1,window=1";

    /** The real document as a run that completed no message writes it: every measured iteration 0 msg/s, empty. */
    private Path nothingMeasured(String name) throws IOException {
        JsonNode doc = ResultDocs.read(real.toFile());
        for (JsonNode it : doc.get("combinations").get(0).get("iterations")) {
            ((ObjectNode) it).put("messages", 0);
            ((ObjectNode) it).put("msgPerSec", 0.0);
            ((ObjectNode) it).put("histogram", HistogramCodec.encode(LatencyHistograms.newHistogram()));
        }
        return Files.writeString(dir.resolve(name), ResultDocument.MAPPER.writeValueAsString(doc));
    }

    @Test
    void aCandidateThatMeasuredNothingIsNotJudgedAndExits6() throws IOException {
        Path nothing = nothingMeasured("nothing.json");
        CliTest.Outcome o = CliTest.run("compare", "--fail-if-slower", "5", "--fail-if-higher", "p99:10",
                baseline.toString(), nothing.toString());
        assertEquals(ExitCode.UNJUDGED, o.code(), o.out() + o.err());
        List<String> lines = o.err().lines().toList();
        assertEquals(List.of(
                "nbench compare: --fail-if-slower 5 not judged for " + COMBINATION + " in " + nothing
                        + ": n/a: an iteration's figure is 0 (no message completed, or CPU time under the OS's 10 ms clock tick)",
                "nbench compare: --fail-if-higher p99:10 not judged for " + COMBINATION + " in " + nothing
                        + ": n/a: an iteration's figure is 0 (no message completed, or CPU time under the OS's 10 ms clock tick)"), lines.subList(0, 2));
        assertEquals(3, lines.size(), o.err());

        CliTest.Outcome allowed = CliTest.run("compare", "--allow-unjudged", "--fail-if-slower", "5",
                baseline.toString(), nothing.toString());
        assertEquals(ExitCode.OK, allowed.code(), allowed.err());
        assertEquals(1, allowed.err().lines().count(), allowed.err());
        // A breach elsewhere still exits 3: a breached gate comes before an unjudged one.
        CliTest.Outcome both = CliTest.run("compare", "--fail-if-slower", "10", baseline.toString(),
                candidate.toString(), nothing.toString());
        assertEquals(ExitCode.THRESHOLD, both.code(), both.err());
    }

    @Test
    void aCombinationMissingFromTheCandidateIsNamedAndExits6() throws IOException {
        // The baseline has a second combination, size 2048, which the candidate never ran.
        ObjectNode doc = (ObjectNode) ResultDocs.read(baseline.toFile());
        ObjectNode second = ((ObjectNode) doc.get("combinations").get(0)).deepCopy();
        second.put("name", "impl=netty,size=2048,threads=1,window=1");
        ((ObjectNode) second.get("keys")).put("size", "2048");
        ((ArrayNode) doc.get("combinations")).add(second);
        Path sweep = Files.writeString(dir.resolve("sweep.json"), ResultDocument.MAPPER.writeValueAsString(doc));
        Path same = craft(real, "same.json", FAST, LOW_LATENCY);
        CliTest.Outcome o = CliTest.run("compare", "--fail-if-slower", "5", sweep.toString(), same.toString());
        assertEquals(ExitCode.UNJUDGED, o.code(), o.out() + o.err());
        List<String> lines = o.err().lines().toList();
        assertEquals("nbench compare: --fail-if-slower 5 not judged for impl=netty,size=2048,threads=1,window=1 in "
                + same + ": the combination is not in " + same, lines.get(0));
        assertEquals(2, lines.size(), "the size=1024 pair was judged (and held): " + o.err());

        CliTest.Outcome json = CliTest.run("compare", "--format", "json", "--fail-if-slower", "5", sweep.toString(),
                same.toString());
        assertEquals(ExitCode.UNJUDGED, json.code(), json.err());
        JsonNode compared = ResultDocument.MAPPER.readTree(json.out());
        assertEquals(6, compared.get("exitCode").asInt());
        JsonNode unjudged = compared.get("unjudged");
        assertEquals(1, unjudged.size(), unjudged.toString());
        assertEquals("--fail-if-slower 5", unjudged.get(0).get("expression").asText());
        assertEquals("throughput", unjudged.get(0).get("metric").asText());
        assertEquals("impl=netty,size=2048,threads=1,window=1", unjudged.get(0).get("combination").asText());
        assertEquals(same.toString(), unjudged.get(0).get("file").asText());
        assertEquals("the combination is not in " + same, unjudged.get(0).get("reason").asText());
        JsonNode gates = compared.get("gates");
        assertEquals(2, gates.size(), gates.toString());
        assertTrue(gates.get(0).get("judged").asBoolean());
        assertTrue(gates.get(0).get("reason").isNull());
        assertFalse(gates.get(1).get("judged").asBoolean());
        assertFalse(gates.get(1).get("breached").asBoolean());
    }

    /**
     * Issue 25.6: a backtick in a combination's or a file's name ended its code span, so what followed (raw HTML,
     * a {@code |}) reached the job summary or pull request comment as Markdown. Each name is now a code span fenced
     * by more backticks than it holds; a line break in it is written as an escape.
     */
    @Test
    void namesCannotBreakOutOfTheirCodeSpansInMarkdown() throws IOException {
        String hostile = "impl=netty`<img src=x onerror=alert(1)>|``x\nline";
        ObjectNode doc = (ObjectNode) ResultDocs.read(baseline.toFile());
        ((ObjectNode) doc.get("combinations").get(0)).put("name", hostile);
        Path named = Files.writeString(dir.resolve("a`<b>bold|x.json"), ResultDocument.MAPPER.writeValueAsString(doc));
        CliTest.Outcome o = CliTest.run("compare", "--format", "markdown", "--fail-if-slower", "50",
                named.toString(), candidate.toString());
        assertEquals(ExitCode.OK, o.code(), o.err());
        List<String> lines = o.out().lines().toList();
        assertTrue(lines.contains("- A: ``" + named + "``"), o.out());
        assertTrue(lines.contains("#### ```impl=netty`<img src=x onerror=alert(1)>|``x\\u000aline``` (B: `"
                + COMBINATION + "`)"), o.out());
        assertTrue(lines.contains("Gates passed: `--fail-if-slower 50`."), o.out());
        for (String line : lines) {
            assertFalse(line.startsWith("line"), "the line break in the name started a line: " + o.out());
        }
    }

    @Test
    void jsonFormatCarriesEveryRowAndTheGates() throws IOException {
        CliTest.Outcome o = compare("--format", "json", "--fail-if-slower", "10");
        assertEquals(ExitCode.THRESHOLD, o.code(), o.err());
        JsonNode doc = ResultDocument.MAPPER.readTree(o.out());
        assertEquals("nbench-compare/1", doc.get("schema").asText());
        assertEquals(3, doc.get("exitCode").asInt());
        JsonNode throughput = doc.get("combinations").get(0).get("metrics").get(0);
        assertEquals("throughput", throughput.get("metric").asText());
        JsonNode b = throughput.get("others").get(0);
        // scipy: 1/1.2016016828, 1/1.2318454329, 1/1.1721004646
        assertEquals(0.8322225, b.get("ratio").asDouble(), 1e-6);
        assertEquals(0.8117902, b.get("low").asDouble(), 1e-6);
        assertEquals(0.8531692, b.get("high").asDouble(), 1e-6);
        assertEquals("slower", b.get("verdict").asText());
        assertEquals(5, b.get("n").asInt());
        JsonNode gate = doc.get("gates").get(0);
        assertEquals("--fail-if-slower 10", gate.get("expression").asText());
        assertTrue(gate.get("breached").asBoolean());
        assertEquals(0.9, gate.get("bound").asDouble(), 1e-12);
        // throughput, the mean and five percentiles of latency, the client's CPU and its CPU per message (these
        // files have no server CPU: no rows for it)
        JsonNode metrics = doc.get("combinations").get(0).get("metrics");
        assertEquals(9, metrics.size(), metrics.toString());
        assertEquals("mean", metrics.get(1).get("metric").asText());
        assertEquals("client CPU", metrics.get(7).get("metric").asText());
        assertEquals("%", metrics.get(7).get("unit").asText());
        assertEquals("client CPU/msg", metrics.get(8).get("metric").asText());
        assertEquals("ns", metrics.get(8).get("unit").asText());
    }

    @Test
    void markdownFormatIsATablePerCombination() {
        CliTest.Outcome o = compare("--format", "markdown", "--fail-if-slower", "20");
        assertEquals(ExitCode.OK, o.code(), o.err());
        List<String> lines = o.out().lines().toList();
        assertTrue(lines.contains("| metric | A | B | B/A [99.9% CI] | verdict |"), o.out());
        assertTrue(lines.contains("| --- | --- | --- | --- | --- |"), o.out());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("| throughput | ") && l.endsWith(" | 0.832 [0.812, 0.853] | **slower** |")),
                o.out());
        assertTrue(lines.contains("Gates passed: `--fail-if-slower 20`."), o.out());
    }
}
