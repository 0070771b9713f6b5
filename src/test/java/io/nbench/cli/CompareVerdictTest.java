package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
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
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code nbench compare} on result documents whose per-iteration figures are known, so each verdict and
 * interval is checked against values computed independently (scipy 1.17:
 * {@code ttest_ind(log(b), log(a), equal_var=False).confidence_interval(0.999)}, exponentiated).
 */
class CompareVerdictTest {

    @TempDir
    static Path dir;

    /** A document nbench wrote, whose measured iterations each test replaces. */
    private static JsonNode real;

    @BeforeAll
    static void aRealDocument() throws IOException {
        Path out = dir.resolve("real.json");
        CliTest.Outcome run = CliTest.run("client", "--port", CliTest.port(Protocol.FRAMED), "--threads", "1",
                "--msgs", "50", "--warmup", "1", "--iterations", "1", "--quiet", "--out", out.toString());
        assertEquals(ExitCode.OK, run.code(), run.out() + run.err());
        real = ResultDocs.read(out);
    }

    /** One combination; each iteration has a throughput and a latency histogram holding one value (ns). */
    private Path resultFile(String name, double[] msgPerSec, long[] latencyNs) throws IOException {
        JsonNode doc = ResultDocs.withMeasured(real, msgPerSec, latencyNs);
        ObjectNode warmup = (ObjectNode) doc.path("combinations").get(0).path("iterations").get(0);
        Histogram second = LatencyHistograms.newHistogram();
        second.recordValueWithCount(1_000_000_000L, 10);
        ResultDocs.consistent(warmup, 1.0, second); // a warmup iteration far off: compare must skip it
        return Files.writeString(dir.resolve(name), ResultDocument.MAPPER.writeValueAsString(doc));
    }

    private static String row(String out, String metric) {
        return out.lines().filter(l -> l.startsWith(metric + " ")).findFirst().orElseThrow(() -> new AssertionError(out));
    }

    @Test
    void significantRowsInBothDirectionsWithIntervalsThatCannotCrossZero() throws IOException {
        Path a = resultFile("a.json", new double[] {100_000, 101_000, 99_000, 100_500, 99_500},
                new long[] {100_000, 101_000, 99_000, 100_500, 99_500});
        // B: 20 % more throughput (faster) and half again the latency (slower).
        Path b = resultFile("b.json", new double[] {120_000, 121_500, 119_000, 120_500, 119_800},
                new long[] {150_000, 152_000, 148_000, 151_000, 149_000});
        CliTest.Outcome o = CliTest.run("compare", a.toString(), b.toString());
        assertEquals(ExitCode.OK, o.code(), o.err());
        assertEquals("", o.err());
        // scipy: ratio 1.2016016828, 99.9 % CI [1.1721004646, 1.2318454329], df 7.993
        String throughput = row(o.out(), "throughput");
        assertTrue(throughput.contains("1.202 [1.172, 1.232]"), throughput);
        assertTrue(throughput.endsWith("faster"), throughput);
        for (String metric : List.of("p50", "p90", "p99", "p99.9", "max")) {
            String r = row(o.out(), metric);
            assertTrue(r.endsWith("slower"), r);
            assertTrue(r.contains(" 1.50"), r);
        }
        // The same files the other way round: every verdict flips, the interval is the inverse.
        CliTest.Outcome back = CliTest.run("compare", b.toString(), a.toString());
        String inverse = row(back.out(), "throughput");
        assertTrue(inverse.endsWith("slower"), inverse);
        assertTrue(inverse.contains("0.832 [0.812, 0.853]"), inverse); // 1/1.2016, 1/1.2318, 1/1.1721
        assertTrue(row(back.out(), "p99").endsWith("faster"), back.out());
    }

    @Test
    void aLargeGapWithThreeIterationsIsTooFewToDecideNotTheSame() throws IOException {
        Path a = resultFile("a.json", new double[] {1000, 1300, 700}, new long[] {100_000, 100_000, 100_000});
        Path c = resultFile("c.json", new double[] {3500, 3600, 3400}, new long[] {100_000, 100_000, 100_000});
        CliTest.Outcome o = CliTest.run("compare", a.toString(), c.toString());
        assertEquals(ExitCode.OK, o.code(), o.err());
        String throughput = row(o.out(), "throughput");
        // scipy: ratio 3.6107938156, 99.9 % CI [0.0157733209, 826.5749539920]: positive, however wide.
        assertTrue(throughput.contains("3.611 [0.016, 826.575]"), throughput);
        assertTrue(throughput.endsWith("N=3: too few iterations to decide; use --iterations ≥ 5 or --forks"), throughput);
        // Identical constant latencies: no difference whatever N (a zero-width interval containing 1).
        assertTrue(row(o.out(), "p50").endsWith("N=3: too few iterations to decide; use --iterations ≥ 5 or --forks"),
                o.out());
    }

    @Test
    void aNoisyBaselineNoLongerGivesANegativeRatio() throws IOException {
        // The case: a noisy A and a small B gave "0.096 [-24.769, 24.961]".
        Path a = resultFile("a.json", new double[] {100, 1000, 10}, new long[] {100_000, 100_000, 100_000});
        Path b = resultFile("b.json", new double[] {10, 10, 9}, new long[] {100_000, 100_000, 100_000});
        String throughput = row(CliTest.run("compare", a.toString(), b.toString()).out(), "throughput");
        // scipy: ratio 0.0965489385, CI [6.3956e-20, 1.4575e17]
        assertTrue(throughput.contains("0.097 [6.40e-20, 1.46e+17]"), throughput);
        assertTrue(throughput.endsWith("N=3: too few iterations to decide; use --iterations ≥ 5 or --forks"), throughput);
    }
}
