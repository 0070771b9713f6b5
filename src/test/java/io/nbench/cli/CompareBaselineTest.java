package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nbench.client.ExitCode;
import io.nbench.protocol.Protocol;
import io.nbench.report.Tty;
import io.nbench.report.json.ResultDocument;
import io.nbench.testkit.AlignedTables;
import io.nbench.testkit.ResultDocs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 30.5: {@code nbench compare --baseline KEY=VALUE[,...] SWEEP.json} compares the combinations of one sweep
 * document with each other: every combination not matching the selector against the one that does and has the
 * same values of every other key both have (each mode against the baseline mode at its own size), with compare's
 * intervals, verdicts and gates. The document is a real sweep ({@code --impl netty,nio}, {@code -O
 * netty.allocator=adaptive,pooled}, {@code --size 100,1k}: six combinations, nio's without the netty key).
 */
class CompareBaselineTest {

    @TempDir
    static Path dir;

    private static Path sweep;
    private static JsonNode doc;

    private static final String NETTY_100 = "impl=netty,size=100,threads=1,window=1,netty.allocator=";
    private static final String NETTY_1K = "impl=netty,size=1024,threads=1,window=1,netty.allocator=";
    private static final String NIO_100 = "impl=nio,size=100,threads=1,window=1";
    private static final String NIO_1K = "impl=nio,size=1024,threads=1,window=1";

    private static final double[] FAST = {120_000, 121_500, 119_000, 120_500, 119_800};
    private static final double[] SLOW = {100_000, 101_000, 99_000, 100_500, 99_500};
    private static final long[] LOW_LATENCY = {100_000, 101_000, 99_000, 100_500, 99_500};
    private static final long[] HIGH_LATENCY = {150_000, 152_000, 148_000, 151_000, 149_000};

    @BeforeAll
    static void aRealSweep() throws IOException {
        sweep = dir.resolve("sweep.json");
        CliTest.Outcome run = CliTest.run("client", "--port", CliTest.port(Protocol.FRAMED), "--impl", "netty,nio",
                "-O", "netty.allocator=adaptive,pooled", "--size", "100,1k", "--threads", "1", "--msgs", "50",
                "--warmup", "1", "--iterations", "5", "--quiet", "--out", sweep.toString());
        assertEquals(ExitCode.OK, run.code(), run.out() + run.err());
        doc = ResultDocs.read(sweep);
        assertEquals(List.of(NETTY_100 + "adaptive", NETTY_100 + "pooled", NETTY_1K + "adaptive", NETTY_1K + "pooled",
                NIO_100, NIO_1K), names(doc), "the sweep this test is written for");
    }

    private static List<String> names(JsonNode d) {
        List<String> names = new ArrayList<>();
        d.get("combinations").forEach(c -> names.add(c.get("name").asText()));
        return names;
    }

    private static CliTest.Outcome compare(String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "compare";
        System.arraycopy(args, 0, all, 1, args.length);
        return CliTest.run(all);
    }

    /** The ratio Comparison defines, computed here from the document: of the geometric means of the measured iterations' throughput. */
    private static double throughputRatio(JsonNode d, String other, String baseline) {
        return geometricMean(d, other) / geometricMean(d, baseline);
    }

    private static double geometricMean(JsonNode d, String name) {
        double logs = 0;
        int n = 0;
        for (JsonNode c : d.get("combinations")) {
            if (!c.get("name").asText().equals(name)) {
                continue;
            }
            for (JsonNode it : c.get("iterations")) {
                if (!it.get("warmup").asBoolean()) {
                    logs += Math.log(it.get("msgPerSec").asDouble());
                    n++;
                }
            }
        }
        assertEquals(5, n, name);
        return Math.exp(logs / n);
    }

    /** Each compared pair of the JSON output (other combination -> its baseline) and its throughput cell. */
    private static Map<String, String> pairs(JsonNode compared, Map<String, JsonNode> throughput) {
        Map<String, String> pairs = new HashMap<>();
        for (JsonNode block : compared.get("combinations")) {
            JsonNode cells = block.get("metrics").get(0).get("others");
            assertEquals("throughput", block.get("metrics").get(0).get("metric").asText());
            for (int i = 0; i < block.get("matched").size(); i++) {
                String other = block.get("matched").get(i).asText();
                pairs.put(other, block.get("name").asText());
                throughput.put(other, cells.get(i));
            }
        }
        return pairs;
    }

    @Test
    void everyOtherCombinationAgainstTheBaselineWithTheSameOtherKeys() throws IOException {
        CliTest.Outcome o = compare("--baseline", "impl=netty,netty.allocator=adaptive", "--format", "json",
                sweep.toString());
        assertEquals(ExitCode.OK, o.code(), o.out() + o.err());
        assertEquals("", o.err());
        JsonNode compared = ResultDocument.MAPPER.readTree(o.out());
        assertEquals("impl=netty,netty.allocator=adaptive", compared.get("baseline").asText());
        assertEquals(List.of(sweep.toString()), List.of(compared.get("files").get(0).asText()));
        Map<String, JsonNode> throughput = new HashMap<>();
        // Each mode against the baseline mode at its own size; nio (no netty.allocator) against netty's adaptive.
        assertEquals(Map.of(NETTY_100 + "pooled", NETTY_100 + "adaptive", NIO_100, NETTY_100 + "adaptive",
                NETTY_1K + "pooled", NETTY_1K + "adaptive", NIO_1K, NETTY_1K + "adaptive"), pairs(compared, throughput));
        throughput.forEach((other, cell) -> {
            double expected = throughputRatio(doc, other, compared.get("combinations").get(
                    other.contains("size=100,") ? 0 : 1).get("name").asText());
            assertEquals(expected, cell.get("ratio").asDouble(), expected * 1e-9, other);
            assertTrue(cell.get("low").asDouble() <= expected && expected <= cell.get("high").asDouble(), other);
        });
        assertEquals(0, compared.get("notCompared").size(), compared.toString());

        // The text: a block per other combination against the baseline, its figures beside theirs (120 columns).
        CliTest.Outcome text = compare("--baseline", "impl=netty,netty.allocator=adaptive", sweep.toString());
        assertEquals(ExitCode.OK, text.code(), text.err());
        List<String> lines = text.out().lines().toList();
        AlignedTables.assertFits(lines, 120);
        assertTrue(lines.contains(NETTY_100 + "adaptive"), text.out());
        assertTrue(lines.contains("B: netty.allocator=pooled against A = impl=netty,netty.allocator=adaptive"),
                text.out());
        assertTrue(lines.contains("C: impl=nio against A = impl=netty,netty.allocator=adaptive"), text.out());
        assertEquals(4, AlignedTables.tables(lines).size(), "per size: B's and C's, A's figures in each: " + text.out());
        assertTrue(text.out().matches("(?s).*\n  metric +A +B +B/A \\[99\\.9% CI\\] +verdict\n.*"), text.out());
    }

    @Test
    void aSizeMayBeWrittenWithItsUnit() throws IOException {
        CliTest.Outcome o = compare("--baseline", "size=1k", "--format", "json", sweep.toString());
        assertEquals(ExitCode.OK, o.code(), o.out() + o.err());
        Map<String, JsonNode> throughput = new HashMap<>();
        assertEquals(Map.of(NETTY_100 + "adaptive", NETTY_1K + "adaptive", NETTY_100 + "pooled", NETTY_1K + "pooled",
                NIO_100, NIO_1K), pairs(ResultDocument.MAPPER.readTree(o.out()), throughput));
        double expected = throughputRatio(doc, NIO_100, NIO_1K);
        assertEquals(expected, throughput.get(NIO_100).get("ratio").asDouble(), expected * 1e-9);
    }

    @Test
    void everyKeyOfTheSelectorIsOneTheBaselineMayDifferIn() throws IOException {
        CliTest.Outcome o = compare("--baseline", "size=1k,netty.allocator=adaptive", "--format", "json",
                sweep.toString());
        assertEquals(ExitCode.OK, o.code(), o.out() + o.err());
        JsonNode compared = ResultDocument.MAPPER.readTree(o.out());
        Map<String, JsonNode> throughput = new HashMap<>();
        // Every netty combination against netty's 1k adaptive one; nio's impl differs from it: not compared.
        assertEquals(Map.of(NETTY_100 + "adaptive", NETTY_1K + "adaptive", NETTY_100 + "pooled", NETTY_1K + "adaptive",
                NETTY_1K + "pooled", NETTY_1K + "adaptive"), pairs(compared, throughput));
        double expected = throughputRatio(doc, NETTY_100 + "pooled", NETTY_1K + "adaptive");
        assertEquals(expected, throughput.get(NETTY_100 + "pooled").get("ratio").asDouble(), expected * 1e-9);
        assertEquals(List.of(NIO_100, NIO_1K), List.of(compared.get("notCompared").get(0).get("combination").asText(),
                compared.get("notCompared").get(1).get("combination").asText()));
    }

    /** The sweep with each netty.allocator=adaptive combination's iterations FAST and every other's SLOW. */
    private static Path crafted(String name, int tooFew) throws IOException {
        JsonNode d = doc;
        List<String> names = names(doc);
        for (int c = 0; c < names.size(); c++) {
            boolean base = names.get(c).endsWith("adaptive");
            d = ResultDocs.withMeasured(d, c, base ? FAST : SLOW, base ? LOW_LATENCY : HIGH_LATENCY);
        }
        if (tooFew >= 0) { // that combination keeps its warmup and two measured iterations
            ArrayNode its = (ArrayNode) d.get("combinations").get(tooFew).get("iterations");
            while (its.size() > 3) {
                its.remove(its.size() - 1);
            }
        }
        return Files.writeString(dir.resolve(name), ResultDocument.MAPPER.writeValueAsString(d));
    }

    @Test
    void gatesJudgeEveryComparisonOfTheSweep() throws IOException {
        Path crafted = crafted("gates.json", -1);
        CliTest.Outcome o = compare("--baseline", "impl=netty,netty.allocator=adaptive", "--fail-if-slower", "10",
                crafted.toString());
        assertEquals(ExitCode.THRESHOLD, o.code(), o.out() + o.err());
        List<String> breaches = new ArrayList<>();
        for (String[] pair : new String[][] {{NETTY_100 + "pooled", NETTY_100 + "adaptive"},
                {NIO_100, NETTY_100 + "adaptive"}, {NETTY_1K + "pooled", NETTY_1K + "adaptive"},
                {NIO_1K, NETTY_1K + "adaptive"}}) {
            // The intervals CompareGateTest pins against scipy for these figures.
            breaches.add("nbench compare: --fail-if-slower 10 breached: " + pair[0] + ": throughput is 0.832 [0.812, "
                    + "0.853] times that of its baseline " + pair[1] + ", beyond 0.900");
        }
        assertEquals(breaches, o.err().lines().toList());
        assertTrue(o.out().contains("0.832 [0.812, 0.853]"), o.out());

        // 16.8 % slower, but not significantly beyond 15 %.
        CliTest.Outcome held = compare("--baseline", "impl=netty,netty.allocator=adaptive", "--fail-if-slower", "15",
                "--fail-if-higher", "p99:60", crafted.toString());
        assertEquals(ExitCode.OK, held.code(), held.err());
        assertEquals("", held.err());
        CliTest.Outcome latency = compare("--baseline", "impl=netty,netty.allocator=adaptive", "--fail-if-higher",
                "p99:40", "--format", "json", crafted.toString());
        assertEquals(ExitCode.THRESHOLD, latency.code(), latency.err());
        JsonNode gates = ResultDocument.MAPPER.readTree(latency.out()).get("gates");
        assertEquals(4, gates.size(), gates.toString());
        for (JsonNode g : gates) {
            assertTrue(g.get("breached").asBoolean(), g.toString());
            assertEquals(crafted.toString(), g.get("file").asText());
        }
        assertEquals(NETTY_100 + "adaptive", gates.get(0).get("combination").asText());
        assertEquals(NETTY_100 + "pooled", gates.get(0).get("against").asText());
    }

    @Test
    void aGateThatCannotJudgeAComparisonOfTheSweepFailsClosed() throws IOException {
        // Too few iterations in one compared combination.
        Path fewer = crafted("fewer.json", names(doc).indexOf(NETTY_1K + "pooled"));
        CliTest.Outcome o = compare("--baseline", "netty.allocator=adaptive", "--fail-if-slower", "50", fewer.toString());
        assertEquals(ExitCode.UNJUDGED, o.code(), o.out() + o.err());
        // And combinations without a baseline: nio has no netty.allocator=adaptive combination of its own impl.
        assertEquals(List.of(
                "nbench compare: --fail-if-slower 50 not judged for " + NETTY_1K + "pooled against its baseline "
                        + NETTY_1K + "adaptive: N=2: too few iterations to decide; use --iterations ≥ 5 or --forks",
                "nbench compare: --fail-if-slower 50 not judged for " + NIO_100 + ": no combination matching "
                        + "--baseline netty.allocator=adaptive has the same impl, size, threads, window",
                "nbench compare: --fail-if-slower 50 not judged for " + NIO_1K + ": no combination matching "
                        + "--baseline netty.allocator=adaptive has the same impl, size, threads, window",
                "nbench compare: 3 gate check(s) could not be judged, so the gates did not pass (exit 6): measure "
                        + "what the lines above name, or add --allow-unjudged to let them pass"),
                o.err().lines().toList());
        assertTrue(o.out().contains("Not compared"), o.out());
        assertTrue(o.out().contains(NIO_100), o.out());

        CliTest.Outcome allowed = compare("--baseline", "netty.allocator=adaptive", "--fail-if-slower", "50",
                "--allow-unjudged", fewer.toString());
        assertEquals(ExitCode.OK, allowed.code(), allowed.err());
        assertEquals(3, allowed.err().lines().count(), allowed.err());

        CliTest.Outcome json = compare("--baseline", "netty.allocator=adaptive", "--fail-if-slower", "50",
                "--format", "json", fewer.toString());
        JsonNode compared = ResultDocument.MAPPER.readTree(json.out());
        assertEquals(6, compared.get("exitCode").asInt());
        assertEquals(3, compared.get("unjudged").size(), compared.toString());
        assertEquals(List.of(NIO_100, NIO_1K), List.of(compared.get("notCompared").get(0).get("combination").asText(),
                compared.get("notCompared").get(1).get("combination").asText()));
    }

    @Test
    void markdownHasATablePerBaselineCombination() throws IOException {
        Path crafted = crafted("markdown.json", -1);
        CliTest.Outcome o = compare("--baseline", "impl=netty,netty.allocator=adaptive", "--format", "markdown",
                "--fail-if-slower", "20", crafted.toString());
        assertEquals(ExitCode.OK, o.code(), o.err());
        List<String> lines = o.out().lines().toList();
        assertTrue(lines.contains("#### `" + NETTY_100 + "adaptive`"), o.out());
        assertTrue(lines.contains("- A: `impl=netty,netty.allocator=adaptive` (the baseline), B: "
                + "`netty.allocator=pooled`, C: `impl=nio`"), o.out());
        assertTrue(lines.contains("| metric | A | B | B/A [99.9% CI] | verdict | C | C/A [99.9% CI] | verdict |"),
                o.out());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("| throughput | ")
                && l.contains(" | 0.832 [0.812, 0.853] | **slower** |")), o.out());
        assertTrue(lines.contains("Gates passed: `--fail-if-slower 20`."), o.out());
    }

    private static void assertUsageError(String expected, CliTest.Outcome o) {
        assertEquals(ExitCode.USAGE, o.code(), o.out() + o.err());
        assertEquals("", o.out());
        assertEquals(List.of("nbench: " + expected), o.err().lines().toList());
    }

    @Test
    void aSelectorThatCannotPickTheBaselinesIsOneLineAndExit2() throws IOException {
        String file = sweep.toString();
        for (String malformed : List.of("", "netty.allocator", "=pooled", "size=", "size=1k,,impl=nio")) {
            assertUsageError("--baseline '" + malformed + "': expected KEY=VALUE[,KEY=VALUE...] with keys as the "
                    + "combinations' names have them, e.g. size=1024 or impl=netty,netty.io=epoll (see 'nbench compare "
                    + "--help')", compare("--baseline", malformed, file));
        }
        assertUsageError("--baseline size=1k,size=100: size is given twice (see 'nbench compare --help')",
                compare("--baseline", "size=1k,size=100", file));
        assertUsageError("--baseline mina.stats=on: no combination of " + file + " has the key mina.stats (its keys: "
                + "impl, size, threads, window, netty.allocator) (see 'nbench compare --help')",
                compare("--baseline", "mina.stats=on", file));
        assertUsageError("--baseline netty.allocator=unpooled matches no combination of " + file + " (netty.allocator: "
                + "adaptive, pooled); its combinations: " + String.join("; ", names(doc)) + " (see 'nbench compare "
                + "--help')", compare("--baseline", "netty.allocator=unpooled", file));
        assertUsageError("--baseline threads=1 matches every combination of " + file + ", leaving none to compare "
                + "with it: name a value only some have (impl: netty, nio; size: 100, 1024; netty.allocator: adaptive, "
                + "pooled) (see 'nbench compare --help')", compare("--baseline", "threads=1", file));
        // nio lacks netty.allocator: two netty combinations of its size would do as its baseline.
        assertUsageError("--baseline impl=netty matches 2 combinations that could each be the baseline of " + NIO_100
                + ": " + NETTY_100 + "adaptive; " + NETTY_100 + "pooled; add a key that tells them apart "
                + "(netty.allocator) to --baseline (see 'nbench compare --help')", compare("--baseline", "impl=netty", file));
        assertUsageError("--baseline picks the baseline among the combinations of one document; with 2 files the "
                + "first file is the baseline: give one file, or drop --baseline (see 'nbench compare --help')",
                compare("--baseline", "size=100", file, file));
        assertUsageError("one file: compare needs two files or more (the first is the baseline), or one sweep "
                + "document and --baseline KEY=VALUE to compare its combinations (see 'nbench compare --help')",
                compare(file));

        ObjectNode one = doc.deepCopy();
        ArrayNode combinations = (ArrayNode) one.get("combinations");
        while (combinations.size() > 1) {
            combinations.remove(combinations.size() - 1);
        }
        Path single = Files.writeString(dir.resolve("one.json"), ResultDocument.MAPPER.writeValueAsString(one));
        assertUsageError("--baseline size=100: " + single + " holds one combination (" + NETTY_100 + "adaptive), "
                + "nothing to compare it with: compare two documents instead (nbench compare BASE.json NEW.json) "
                + "(see 'nbench compare --help')", compare("--baseline", "size=100", single.toString()));
        assertFalse(compare("--baseline", "size=100", single.toString()).err().contains("Exception"));
    }

    /**
     * Three files or more: a block per file against the first, as run prints servers, not one table that grows a
     * column pair per file (three files of this sweep were 190 columns wide); every line within the text width.
     */
    @Test
    void threeFilesAreABlockPerFileAgainstTheFirstWithinTheWidth() throws IOException {
        Path b = dir.resolve("b.json");
        Path c = dir.resolve("c.json");
        Files.copy(sweep, b, StandardCopyOption.REPLACE_EXISTING);
        Files.copy(sweep, c, StandardCopyOption.REPLACE_EXISTING);
        CliTest.Outcome o = compare(sweep.toString(), b.toString(), c.toString());
        assertEquals(ExitCode.OK, o.code(), o.out() + o.err());
        for (String line : o.out().split("\n")) {
            assertTrue(line.length() <= Tty.TEXT_COLUMNS, "a line within the width: " + line.length() + ": " + line);
        }
        for (String name : names(doc)) {
            String block = o.out().substring(o.out().indexOf("\n" + name + "\n"));
            assertTrue(block.contains("\nB: " + b + " against A = " + sweep + "\n"), block);
            assertTrue(block.contains("\nC: " + c + " against A = " + sweep + "\n"), block);
        }
    }

}
