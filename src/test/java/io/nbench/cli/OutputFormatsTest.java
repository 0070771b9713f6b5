package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import io.nbench.client.ExitCode;
import io.nbench.protocol.Protocol;
import io.nbench.report.json.ResultDocument;
import io.nbench.stats.HistogramCodec;
import io.nbench.stats.LatencyHistograms;
import io.nbench.stats.Percentiles;
import io.nbench.testkit.CsvColumns;
import io.nbench.testkit.ResultDocs;
import io.nbench.testkit.ScriptedServer;
import io.nbench.testkit.Stderr;
import io.nbench.units.Units;
import java.io.FileInputStream;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --format json|csv|ndjson, --out, --hdr-log, --hgrm and sweeps, read back with JSON and HdrHistogram's own readers. */
class OutputFormatsTest {

    @TempDir
    Path dir;

    /**
     * A small bounded run against the shared netty server: 2 threads x 150 msgs of 200 B, 1 warmup + 3
     * measured; options in {@code more} replace these defaults (list options would otherwise accumulate).
     */
    static List<String> small(String... more) {
        List<String> given = List.of(more);
        List<String> args = new ArrayList<>(List.of("client", "--port", CliTest.port(Protocol.FRAMED)));
        String[][] defaults = {{"--threads", "2"}, {"--msgs", "150"}, {"--warmup", "1"}, {"--iterations", "3"},
            {"--size", "200"}};
        for (String[] d : defaults) {
            if (!given.contains(d[0])) {
                args.addAll(List.of(d));
            }
        }
        args.addAll(given);
        return args;
    }

    static CliTest.Outcome run(List<String> args) {
        return CliTest.run(args.toArray(new String[0]));
    }

    static JsonNode json(String text) throws IOException {
        return ResultDocs.read(text);
    }

    /** Every JSON value in the text; a single document gives a list of one. */
    static List<JsonNode> values(String text) throws IOException {
        List<JsonNode> all = new ArrayList<>();
        try (MappingIterator<JsonNode> it = ResultDocument.MAPPER.readerFor(JsonNode.class).readValues(text)) {
            while (it.hasNext()) {
                all.add(it.next());
            }
        }
        return all;
    }

    @Test
    void formatJsonStdoutIsOneDocumentThatAgreesWithItsOwnHistograms() throws IOException {
        CliTest.Outcome o = run(small("--format", "json"));
        assertEquals(ExitCode.OK, o.code(), o.err());
        assertEquals("", Stderr.withoutWarnings(o.err()));
        List<JsonNode> docs = values(o.out());
        assertEquals(1, docs.size(), o.out());
        JsonNode doc = docs.get(0);
        assertEquals(ResultDocument.SCHEMA, doc.get("schema").asText());
        assertEquals("PASS", doc.get("status").asText());
        assertEquals(0, doc.get("exitCode").asInt());
        assertEquals(1, doc.get("combinations").size());
        JsonNode c = doc.get("combinations").get(0);
        assertEquals("netty", c.get("keys").get("impl").asText());
        assertEquals("200", c.get("keys").get("size").asText());
        assertEquals(4, c.get("iterations").size());
        assertEquals(2 * 150 * 3, c.get("summary").get("messages").asLong());
        assertEquals(c.get("summary"), doc.get("summary"), "a single run's summary is also at the top");

        Histogram merged = LatencyHistograms.newHistogram();
        for (JsonNode it : c.get("iterations")) {
            Histogram h = HistogramCodec.decode(it.get("histogram").asText());
            assertEquals(it.get("messages").asLong(), h.getTotalCount());
            assertEquals(it.get("latencyNs").get("p50").asLong(), Percentiles.valueAt(h, 50));
            if (!it.get("warmup").asBoolean()) {
                merged.add(h);
            }
        }
        JsonNode mergedNs = c.get("summary").get("latencyNs").get("merged");
        for (double p : Percentiles.DEFAULT) {
            assertEquals(Percentiles.valueAt(merged, p), mergedNs.get(Percentiles.label(p)).asLong(), "p" + p);
        }
        assertTrue(c.get("summary").get("throughput").get("mean").asDouble() > 0);
        assertEquals(3, c.get("summary").get("throughput").get("n").asInt());
        assertEquals(0, c.get("errors").get("total").asLong());
        assertEquals(150, doc.get("configuration").get("options").get("msgs").asLong());
    }

    @Test
    void outFileHoldsWhatTheTextReportPrinted() throws IOException {
        Path file = dir.resolve("result.json");
        CliTest.Outcome o = run(small("--out", file.toString()));
        assertEquals(ExitCode.OK, o.code(), o.err());
        assertEquals("", o.err());
        JsonNode summary = json(Files.readString(file)).get("combinations").get(0).get("summary");
        assertTrue(o.out().contains("All 3 iterations merged (" + Units.count(summary.get("messages").asLong()) + " msgs)"),
                o.out());
        JsonNode merged = summary.get("latencyNs").get("merged");
        String expected = "p50: " + Units.micros(merged.get("p50").asLong()) + " µs, p75: "
                + Units.micros(merged.get("p75").asLong()) + " µs";
        assertTrue(o.out().contains(expected), expected + " in " + o.out());
        assertTrue(o.out().contains("max: " + Units.micros(merged.get("p100").asLong()) + " µs"), o.out());
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of(file), files.toList(), "no temporary file left behind");
        }
    }

    @Test
    void hdrLogReadByHistogramLogReaderGivesTheSummaryPercentiles() throws IOException {
        Path log = dir.resolve("lat.hlog");
        Path file = dir.resolve("r.json");
        CliTest.Outcome o = run(small("--hdr-log", log.toString(), "--out", file.toString()));
        assertEquals(ExitCode.OK, o.code(), o.err());
        Histogram measured = LatencyHistograms.newHistogram();
        Histogram untaggedCopies = LatencyHistograms.newHistogram();
        int intervals = 0;
        try (FileInputStream in = new FileInputStream(log.toFile())) {
            HistogramLogReader reader = new HistogramLogReader(in);
            Histogram h;
            while ((h = (Histogram) reader.nextIntervalHistogram()) != null) {
                intervals++;
                if (h.getTag() == null) {
                    untaggedCopies.add(h); // for HistogramLogProcessor without -tag
                    continue;
                }
                assertTrue(h.getTag().startsWith("impl=netty;size=200;threads=2;window=1"), h.getTag());
                if (!h.getTag().endsWith(";warmup")) {
                    measured.add(h);
                }
            }
        }
        assertEquals(measured, untaggedCopies, "the untagged intervals copy the measured ones");
        assertTrue(intervals >= 4, "one interval per second per iteration at least: " + intervals);
        JsonNode summary = json(Files.readString(file)).get("summary");
        assertEquals(summary.get("messages").asLong(), measured.getTotalCount());
        for (double p : Percentiles.DEFAULT) {
            assertEquals(summary.get("latencyNs").get("merged").get(Percentiles.label(p)).asLong(),
                    Percentiles.valueAt(measured, p), "p" + p);
        }
        assertTrue(o.out().contains("p99: " + Units.micros(Percentiles.valueAt(measured, 99)) + " µs"), o.out());
    }

    @Test
    void csvHasOneHeaderAndOneRowPerIterationPerCombination() {
        CliTest.Outcome o = run(small("--format", "csv", "--size", "100,300"));
        assertEquals(ExitCode.OK, o.code(), o.err());
        assertEquals("", Stderr.withoutWarnings(o.err()));
        List<String> lines = o.out().lines().toList();
        assertEquals(1 + 2 * 4, lines.size(), o.out());
        String header = lines.get(0);
        assertTrue(header.startsWith("run_id,start_time,host,nbench,impl,size,threads,window,rate,options,iteration,warmup,"
                + "messages,wall_ns,msg_per_s,mib_per_s,p25_ns,p50_ns,p75_ns,p90_ns,p95_ns,p99_ns,p99.9_ns,p99.99_ns,"
                + "p100_ns,errors,errors_connect,"), header);
        int columns = header.split(",").length;
        List<List<String>> records = CsvColumns.records(o.out()); // RFC 4180: warnings quoted
        for (List<String> row : records.subList(1, records.size())) {
            assertEquals(columns, row.size(), row.toString());
        }
        assertTrue(lines.get(1).contains(",netty,100,2,1,,,1,true,300,"), lines.get(1));
        assertTrue(lines.get(8).contains(",netty,300,2,1,,,3,false,300,"), lines.get(8));

        CliTest.Outcome appended = run(small("--format", "csv", "--no-header", "--iterations", "1", "--warmup", "0"));
        assertEquals(ExitCode.OK, appended.code(), appended.err());
        assertEquals(1, appended.out().lines().count(), appended.out());
        assertTrue(appended.out().contains(",netty,200,"), appended.out());
    }

    @Test
    void ndjsonIsJsonLinesEndingWithTheDocument() throws IOException {
        CliTest.Outcome o = run(small("--format", "ndjson"));
        assertEquals(ExitCode.OK, o.code(), o.err());
        assertEquals("", Stderr.withoutWarnings(o.err()));
        List<String> lines = o.out().lines().toList();
        assertTrue(lines.size() >= 5, o.out());
        long messages = 0;
        for (String line : lines.subList(0, lines.size() - 1)) {
            JsonNode n = ResultDocs.validInterval(ResultDocument.MAPPER.readTree(line));
            assertEquals("interval", n.get("type").asText(), line);
            for (String f : List.of("combination", "iteration", "warmup", "msgPerSec", "p50Ns", "p99Ns", "maxNs", "errors",
                    "cpuPercent", "gcCount")) {
                assertTrue(n.has(f), f + " in " + line);
            }
            if (!n.get("warmup").asBoolean()) {
                messages += n.get("messages").asLong();
            }
        }
        JsonNode last = json(lines.get(lines.size() - 1));
        assertEquals(ResultDocument.SCHEMA, last.get("schema").asText());
        assertEquals(last.get("summary").get("messages").asLong(), messages);
    }

    @Test
    void sweepRunsTheProductAndEndsWithOneTable() throws IOException {
        Path file = dir.resolve("sweep.json");
        CliTest.Outcome o = run(small("--size", "100,300", "--window", "1,2", "--iterations", "2", "--quiet",
                "-O", "netty.allocator=pooled,unpooled", "--out", file.toString()));
        assertEquals(ExitCode.OK, o.code(), o.err());
        assertEquals("", o.err());
        JsonNode doc = json(Files.readString(file));
        assertEquals(8, doc.get("combinations").size());
        assertTrue(doc.get("summary").isNull(), "a sweep has no single summary");
        assertEquals(List.of("impl", "size", "threads", "window", "netty.allocator"),
                ResultDocument.MAPPER.convertValue(doc.get("configuration").get("keys"), List.class));
        JsonNode last = doc.get("combinations").get(7);
        assertEquals("impl=netty,size=300,threads=2,window=2,netty.allocator=unpooled", last.get("name").asText());
        assertEquals("unpooled", last.get("transport").get("options").get("netty.allocator").asText());
        assertEquals(2, last.get("load").get("window").asInt());
        assertTrue(o.out().contains("SWEEP RESULTS (8 combinations"), o.out());
        int table = o.out().indexOf("SWEEP RESULTS");
        assertEquals(8, o.out().substring(table).lines().filter(l -> l.startsWith("netty ")).count(), o.out());
    }

    @Test
    void hgrmWritesOnePercentileDistributionPerCombination() throws IOException {
        String template = dir.resolve("lat-{combination}.hgrm").toString();
        CliTest.Outcome o = run(small("--size", "100,300", "--iterations", "1", "--quiet", "--hgrm", template));
        assertEquals(ExitCode.OK, o.code(), o.err());
        for (String size : List.of("100", "300")) {
            Path f = dir.resolve("lat-impl-netty_size-" + size + "_threads-2_window-1.hgrm");
            String text = Files.readString(f);
            assertTrue(text.startsWith("#nbench impl=netty;size=" + size + ";threads=2;window=1: latency in milliseconds"),
                    text);
            assertTrue(text.lines().skip(1).findFirst().orElse("").strip().startsWith("Value"), text);
            assertTrue(text.contains("#[Max"), text);
        }
        CliTest.Outcome oneFile = run(small("--size", "100,300", "--hgrm", dir.resolve("one.hgrm").toString()));
        assertEquals(ExitCode.USAGE, oneFile.code(), "a sweep needs {combination} in the template");
    }

    @Test
    void openLoopSweepOverRatesRecordsCorrectedUncorrectedAndResources() throws IOException {
        CliTest.Outcome o = CliTest.run("client", "--port", CliTest.port(Protocol.FRAMED), "--threads", "2",
                "--rate", "1k,2k", "--iteration-time", "300ms", "--warmup", "1", "--iterations", "2", "--size", "100",
                "--format", "json", "--threshold", "rate-achieved>=1", "--threshold", "p99<1000s");
        // On a busy 2-core machine a rate can be missed by more than 1 % (FAIL, 4); that is not what is tested.
        assertTrue(o.code() == ExitCode.OK || o.code() == ExitCode.FAILED, o.err() + o.out());
        JsonNode doc = json(o.out());
        assertEquals(o.code(), doc.get("exitCode").asInt());
        assertEquals(List.of("impl", "size", "threads", "window", "rate"),
                ResultDocument.MAPPER.convertValue(doc.get("configuration").get("keys"), List.class));
        assertEquals(2, doc.get("combinations").size());
        JsonNode c = doc.get("combinations").get(1);
        assertEquals("2000", c.get("keys").get("rate").asText());
        JsonNode open = c.get("summary").get("openLoop");
        assertEquals(2000.0, open.get("targetRate").asDouble());
        assertTrue(open.get("achievedRate").asDouble() > 0, open.toString());
        assertTrue(open.get("uncorrectedNs").has("p99"), open.toString());
        assertTrue(open.get("sendLagNs").has("p50"), open.toString());
        JsonNode it = c.get("iterations").get(1);
        assertTrue(it.get("openLoop").get("sent").asLong() > 0, it.toString());
        Histogram uncorrected = HistogramCodec.decode(it.get("openLoop").get("uncorrectedHistogram").asText());
        // A message's corrected and uncorrected latencies are recorded in the same interval: equal counts.
        assertEquals(it.get("messages").asLong(), uncorrected.getTotalCount());
        assertTrue(it.get("resources").has("cpuPercent"), it.toString());
        assertTrue(c.get("summary").get("resources").has("gcCount"), c.toString());
        for (JsonNode t : c.get("thresholds")) {
            assertTrue(t.get("passed").asBoolean(), t.toString());
        }
    }

    @Test
    void rateAchievedIsNotMeasuredInTheClosedLoopSoItFails() {
        CliTest.Outcome o = run(small("--threshold", "rate-achieved>1"));
        assertEquals(ExitCode.THRESHOLD, o.code(), o.out());
        assertTrue(o.out().contains("rate-achieved>1 (rate-achieved = not measured)"), o.out());
    }

    // ---- thresholds and exit codes ----------------------------------------------------------------

    @Test
    void impossibleThresholdIsExit3WithTheBreachPrinted() {
        CliTest.Outcome o = run(small("--threshold", "p50<1ns", "--threshold", "errors==0"));
        assertEquals(ExitCode.THRESHOLD, o.code(), o.out() + o.err());
        assertTrue(o.out().contains("Threshold BREACHED: p50<1ns (p50 = "), o.out());
        assertTrue(o.out().contains("Threshold passed: errors==0 (errors = 0)"), o.out());
        assertTrue(o.out().contains("Result: FAIL: threshold breached: p50<1ns"), o.out());
        assertEquals("", o.err());
    }

    @Test
    void thresholdsThatHoldExit0AndAreInTheDocument() throws IOException {
        CliTest.Outcome o = run(small("--format", "json", "--threshold", "p99 < 1000s", "--threshold", "throughput>=1",
                "--threshold", "error-rate<=0%", "--threshold", "max!=0"));
        assertEquals(ExitCode.OK, o.code(), o.err());
        JsonNode thresholds = json(o.out()).get("combinations").get(0).get("thresholds");
        assertEquals(4, thresholds.size());
        for (JsonNode t : thresholds) {
            assertTrue(t.get("passed").asBoolean(), t.toString());
        }
        assertEquals(1e12, thresholds.get(0).get("limit").asDouble());
        assertEquals("ns", thresholds.get(0).get("unit").asText());
    }

    @Test
    void breachInJsonModeGoesToStderrAndStdoutStaysJson() throws IOException {
        CliTest.Outcome o = run(small("--format", "json", "--threshold", "p99<1ns"));
        assertEquals(ExitCode.THRESHOLD, o.code());
        assertTrue(o.err().contains("threshold breached [impl=netty,size=200,threads=2,window=1]: p99<1ns"), o.err());
        JsonNode doc = json(o.out());
        assertEquals("FAIL", doc.get("status").asText());
        assertEquals(3, doc.get("exitCode").asInt());
        assertFalse(doc.get("combinations").get(0).get("thresholds").get(0).get("passed").asBoolean());
    }

    @Test
    void malformedThresholdIsAUsageError() {
        for (String expr : List.of("p99<", "p99~2ms", "latency<2ms", "p99<2parsecs", "throughput>1q", "p0<1ms", "<5")) {
            CliTest.Outcome o = run(small("--threshold", expr));
            assertEquals(ExitCode.USAGE, o.code(), expr + ": " + o.err());
            assertEquals(1, o.err().strip().lines().count(), o.err());
            assertTrue(o.err().startsWith("nbench: --threshold '" + expr + "'"), o.err());
            assertEquals("", o.out());
        }
    }

    @Test
    void errorsOverMaxErrorsAre4EvenWithABreachedThreshold() throws Exception {
        // A rejection is an answer: the run goes on to its end and FAILs (a silent server would abort it).
        try (ScriptedServer rejecting = new ScriptedServer(i -> i == 0 ? ScriptedServer.Action.REJECT
                : ScriptedServer.Action.ANSWER)) {
            CliTest.Outcome o = CliTest.run("client", "--port", Integer.toString(rejecting.address().getPort()),
                    "--threads", "1", "--msgs", "2", "--warmup", "0", "--iterations", "1",
                    "--format", "json", "--threshold", "errors==0");
            assertEquals(ExitCode.FAILED, o.code(), o.err());
            JsonNode doc = json(o.out());
            assertEquals("FAIL", doc.get("status").asText());
            assertEquals(4, doc.get("exitCode").asInt());
            assertEquals(1, doc.get("combinations").get(0).get("errors").get("rejected").asLong());
            assertTrue(o.err().contains("FAIL"), o.err());
        }
    }

    @Test
    void connectionRefusedIsExit1AndJsonStillSaysWhy() throws Exception {
        int free;
        try (ServerSocket s = new ServerSocket(0)) {
            free = s.getLocalPort();
        }
        CliTest.Outcome o = CliTest.run("client", "--port", Integer.toString(free), "--msgs", "10",
                "--connect-timeout", "300ms", "--format", "json");
        assertEquals(ExitCode.COULD_NOT_RUN, o.code());
        JsonNode doc = json(o.out());
        assertEquals("ABORTED", doc.get("status").asText());
        assertEquals(1, doc.get("exitCode").asInt());
        assertTrue(doc.get("error").asText().contains("refused"), doc.toString());
        assertEquals(1, o.err().strip().lines().count(), o.err());
    }

    @Test
    void outInAMissingDirectoryIsExit1BeforeRunning() {
        Path missing = dir.resolve("no/such/dir/result.json");
        CliTest.Outcome o = run(small("--out", missing.toString()));
        assertEquals(ExitCode.COULD_NOT_RUN, o.code());
        assertEquals(1, o.err().strip().lines().count(), o.err());
        assertTrue(o.err().contains("cannot write --out " + missing), o.err());
        assertTrue(o.err().contains("does not exist"), o.err());
        CliTest.Outcome log = run(small("--hdr-log", missing.toString()));
        assertEquals(ExitCode.COULD_NOT_RUN, log.code());
        assertTrue(log.err().contains("cannot write --hdr-log"), log.err());
    }

    // ---- compare ----------------------------------------------------------------------------------

    @Test
    void compareTwoResultFilesGivesAVerdictPerMetric() throws IOException {
        Path a = dir.resolve("a.json");
        Path b = dir.resolve("b.json");
        assertEquals(ExitCode.OK, run(small("--quiet", "--out", a.toString())).code());
        assertEquals(ExitCode.OK, run(small("--quiet", "--window", "2", "--out", b.toString())).code());
        CliTest.Outcome o = CliTest.run("compare", a.toString(), b.toString());
        assertEquals(ExitCode.OK, o.code(), o.err());
        assertEquals("", o.err());
        List<String> rows = o.out().lines().filter(l -> l.matches("^(throughput|p50|p90|p99|p99\\.9|max) .*")).toList();
        assertEquals(6, rows.size(), o.out());
        for (String row : rows) {
            // N=3: a difference that is not significant is too few to decide, never "no significant difference";
            // CompareVerdictTest pins the verdicts and intervals on files whose figures are known.
            assertTrue(row.endsWith("faster") || row.endsWith("slower")
                    || row.endsWith("N=3: too few iterations to decide; use --iterations ≥ 5 or --forks"), row);
        }
        assertTrue(o.out().contains("(B: impl=netty,size=200,threads=2,window=2)"), o.out());
    }

    @Test
    void compareRejectsMissingAndForeignFilesWithExit1() throws IOException {
        Path a = dir.resolve("a.json");
        assertEquals(ExitCode.OK, run(small("--quiet", "--iterations", "2", "--out", a.toString())).code());
        Path foreign = Files.writeString(dir.resolve("foreign.json"), "{\"schema\": \"other/1\"}");
        Path garbage = Files.writeString(dir.resolve("garbage.json"), "not json at all");
        for (Path bad : List.of(dir.resolve("missing.json"), foreign, garbage)) {
            CliTest.Outcome o = CliTest.run("compare", a.toString(), bad.toString());
            assertEquals(ExitCode.COULD_NOT_RUN, o.code(), bad.toString());
            assertEquals(1, o.err().strip().lines().count(), o.err());
            assertTrue(o.err().startsWith("nbench compare: " + bad), o.err());
        }
        assertEquals(ExitCode.USAGE, CliTest.run("compare", a.toString()).code(), "two files at least");
    }

    /** The JSON iteration count is warmup + measured; the CSV rows name them the same way. */
    @Test
    void iterationsAreIndexedWithinTheirKind() throws IOException {
        JsonNode doc = json(run(small("--format", "json")).out());
        Iterator<JsonNode> it = doc.get("combinations").get(0).get("iterations").elements();
        List<String> seen = new ArrayList<>();
        it.forEachRemaining(n -> seen.add((n.get("warmup").asBoolean() ? "w" : "m") + n.get("index").asInt()));
        assertEquals(List.of("w1", "m1", "m2", "m3"), seen);
    }
}
