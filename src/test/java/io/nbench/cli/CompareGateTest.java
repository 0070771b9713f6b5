package io.nbench.cli;

import io.nbench.client.ExitCode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.protocol.Protocol;
import io.nbench.report.json.ResultDocument;
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

    private Path baseline;
    private Path candidate;

    private static final double[] FAST = {120_000, 121_500, 119_000, 120_500, 119_800};
    private static final double[] SLOW = {100_000, 101_000, 99_000, 100_500, 99_500};
    private static final long[] LOW_LATENCY = {100_000, 101_000, 99_000, 100_500, 99_500};
    private static final long[] HIGH_LATENCY = {150_000, 152_000, 148_000, 151_000, 149_000};

    @BeforeEach
    void files() throws IOException {
        Path real = dir.resolve("real.json");
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
    void tooFewIterationsCannotBreachAGateAndSaySo() throws IOException {
        JsonNode doc = ResultDocs.read(candidate.toFile());
        var its = (com.fasterxml.jackson.databind.node.ArrayNode) doc.get("combinations").get(0).get("iterations");
        while (its.size() > 3) { // the warmup and two measured iterations
            its.remove(its.size() - 1);
        }
        Files.writeString(candidate, ResultDocument.MAPPER.writeValueAsString(doc));
        // Latency 1.51 [0.936, 2.435] times the baseline's with N=2: cannot be told from noise.
        CliTest.Outcome o = compare("--fail-if-higher", "p99:1");
        assertEquals(ExitCode.OK, o.code(), o.out() + o.err());
        assertTrue(o.err().startsWith("nbench compare: --fail-if-higher p99:1 not judged for "), o.out() + o.err());
        assertTrue(o.err().contains("N=2: too few iterations to decide"), o.err());
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
        // throughput, five latencies, and the client's CPU (these files have no server CPU: no row for it)
        JsonNode metrics = doc.get("combinations").get(0).get("metrics");
        assertEquals(7, metrics.size(), metrics.toString());
        assertEquals("client CPU", metrics.get(6).get("metric").asText());
        assertEquals("%", metrics.get(6).get("unit").asText());
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
