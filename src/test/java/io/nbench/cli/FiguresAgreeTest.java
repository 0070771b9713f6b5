package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.client.ExitCode;
import io.nbench.protocol.Protocol;
import io.nbench.report.json.ResultDocument;
import io.nbench.server.BenchServer;
import io.nbench.server.ServerPlan;
import io.nbench.stats.HistogramCodec;
import io.nbench.stats.Percentiles;
import io.nbench.testkit.CsvColumns;
import io.nbench.testkit.NbenchProcess;
import io.nbench.testkit.ResultDocs;
import io.nbench.testkit.Stderr;
import io.nbench.tls.TlsChoice;
import io.nbench.units.Units;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;
import org.apache.commons.math3.distribution.TDistribution;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every figure nbench writes, from one real client run per shape ({@code nbench client} in a JVM of its own
 * against a real server): each CSV column against the result document's field and against the figure worked
 * out here ({@link CsvColumns}), each document figure against the decoded histograms and the load asked for
 * (messages = threads x msgs for both drivers, bytes = messages x size, MiB/s = bytes / time, percentiles
 * by HdrHistogram, means and intervals over the iterations), and the text's figures against the document.
 */
class FiguresAgreeTest {

    @TempDir
    Path dir;

    /** Every CSV percentile column is also in the document, so each is checked against both. */
    private static final String PERCENTILES = "25,50,75,90,95,99,99.9,99.99,100";

    /**
     * 2 threads x 500 msgs = 1,000 a iteration over 3 connections, which the io driver shares out unevenly
     * (334, 333, 333): a quota lost in the rounding shows as 999.
     */
    private static final List<String> CLOSED = List.of("--threads", "2", "--connections", "3", "--msgs", "500",
            "--window", "2", "--size", "300", "--warmup", "1", "--iterations", "3");

    /** 1,000 msg/s, 2 x 200 msgs a iteration (0.4 s each) over 3 connections: quotas of 134, 133 and 133. */
    private static final List<String> OPEN = List.of("--rate", "1000", "--threads", "2", "--connections", "3",
            "--msgs", "200", "--size", "200", "--warmup", "1", "--iterations", "2");

    /** A small young generation, so the client collects during the run and the GC columns are not all 0. */
    private static final List<String> JVM = List.of("-XX:+UseSerialGC", "-Xmn2m");

    private NbenchProcess.Result client(List<String> shape, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("client", "--port", CliTest.port(Protocol.FRAMED), "--percentiles",
                PERCENTILES));
        args.addAll(shape);
        args.addAll(List.of(more));
        NbenchProcess.Result r = NbenchProcess.run(dir, "022", JVM, args.toArray(new String[0]));
        // A busy machine may miss the open loop's rate (a FAIL, exit 4, said on stderr); the figures must agree
        // all the same.
        if (shape == OPEN && r.exit() == ExitCode.FAILED) {
            // csv and json say it on stderr (beside the run's warnings, which a busy machine brings); text says it
            // on its Result line, with stderr empty.
            boolean onStderr = Stderr.withoutWarnings(r.err()).matches("nbench client: FAIL \\[[^]]*]: target rate missed by more than 1% in "
                    + "\\d iteration\\(s\\): [^\n]*\n");
            boolean inText = r.err().isEmpty()
                    && r.out().contains("\nResult: FAIL: target rate missed by more than 1% in ");
            assertTrue(onStderr || inText, r.all());
        } else {
            assertEquals(ExitCode.OK, r.exit(), r.all());
            assertEquals("", Stderr.withoutWarnings(r.err()));
        }
        return r;
    }

    @ParameterizedTest
    @ValueSource(strings = {"threads", "io"})
    void closedLoopCsvAndDocumentAgreeWithTheHistogramsAndTheLoadAsked(String driver) throws Exception {
        NbenchProcess.Result r = client(CLOSED, "--driver", driver, "--format", "csv", "--out", "r.json");
        JsonNode doc = ResultDocs.read(dir.resolve("r.json"));
        assertEquals(driver, doc.path("combinations").get(0).path("load").path("driver").asText());
        checkDocument(doc);
        CsvColumns.check(r.out(), doc);
        // A client alone, no monitor: the server is its address; its transport is not known, so not said
        JsonNode server = doc.path("configuration").path("server");
        assertTrue(server.path("transport").isNull(), server.toString());
        assertEquals("127.0.0.1:" + CliTest.port(Protocol.FRAMED), server.path("address").asText(), server.toString());
        assertEquals("target", server.path("source").asText(), server.toString());
        List<List<String>> rows = CsvColumns.records(r.out());
        int transport = rows.get(0).indexOf("server_transport");
        assertTrue(transport >= 0, rows.get(0).toString());
        assertEquals(Set.of(""), rows.subList(1, rows.size()).stream().map(row -> row.get(transport))
                .collect(Collectors.toSet()), "an unknown transport is an empty cell, never a guess");
    }

    @Test
    void openLoopCsvAndDocumentAgreeWithTheHistogramsAndTheRateAsked() throws Exception {
        NbenchProcess.Result r = client(OPEN, "--format", "csv", "--out", "r.json");
        JsonNode doc = ResultDocs.read(dir.resolve("r.json"));
        checkDocument(doc);
        CsvColumns.check(r.out(), doc);
    }

    /**
     * Each step of a curve (--rate-sweep, --find-rate) is a point whose cause the CSV carries on the step's last
     * measured row, as the document's curve has it; the probe (closed loop) and every other row have none. Before:
     * no such column (the issue asked for the curve in CSV too).
     */
    @Test
    void curveStepsCarryTheirCauseInCsvAsTheDocumentHasIt() throws Exception {
        for (List<String> curve : List.of(List.of("--rate-sweep", "200..600/3"),
                List.of("--find-rate", "--slo", "p99<=5s", "--max-time", "2s"))) {
            List<String> args = new ArrayList<>(List.of("client", "--port", CliTest.port(Protocol.FRAMED),
                    "--iteration-time", "200ms", "--warmup", "0", "--iterations", "1", "--format", "csv", "--out",
                    dir.resolve("c.json").toString()));
            args.addAll(curve);
            CliTest.Outcome o = CliTest.run(args.toArray(String[]::new));
            JsonNode doc = ResultDocs.read(dir.resolve("c.json"));
            CsvColumns.check(o.out(), doc);
            JsonNode points = doc.has("curve") ? doc.path("curve") : doc.path("capacity").path("curve");
            List<List<String>> rows = CsvColumns.records(o.out());
            int cause = rows.get(0).indexOf("step_cause");
            List<String> causes = rows.subList(1, rows.size()).stream().map(r -> r.get(cause))
                    .filter(c -> !c.isEmpty()).toList();
            List<String> expected = new ArrayList<>();
            doc.path("combinations").forEach(c -> points.forEach(p -> {
                if (p.path("combination").asText().equals(c.path("name").asText())) {
                    expected.add(p.path("cause").asText());
                }
            }));
            assertTrue(points.size() >= (curve.contains("--rate-sweep") ? 3 : 1), doc.toString());
            assertEquals(expected, causes, curve + ": " + o.out());
        }
    }

    /**
     * With TLS and reconnects, the handshake columns too: each against the document's {@code handshakeLatency} and
     * its decoded histogram.
     */
    @Test
    void tlsReconnectingCsvAndDocumentAgreeWithTheHandshakeHistograms() throws Exception {
        ServerPlan plan = ServerPlan.builder().transport("netty", Map.of()).protocol(Protocol.FRAMED)
                .tls(TlsChoice.defaults(), null, null).build();
        NbenchProcess.Result r;
        try (BenchServer s = BenchServer.start(plan, new PrintWriter(new StringWriter()),
                new PrintWriter(new StringWriter()))) {
            List<String> args = new ArrayList<>(List.of("client", "--port", Integer.toString(s.address().getPort()),
                    "--percentiles", PERCENTILES, "--tls", "--tls-insecure", "--driver", "threads",
                    "--requests-per-connection", "50", "--format", "csv", "--out", "r.json"));
            args.addAll(CLOSED);
            r = NbenchProcess.run(dir, "022", JVM, args.toArray(new String[0]));
        }
        assertEquals(ExitCode.OK, r.exit(), r.all());
        assertEquals("", Stderr.withoutWarnings(r.err()));
        JsonNode doc = ResultDocs.read(dir.resolve("r.json"));
        checkDocument(doc);
        CsvColumns.check(r.out(), doc);
        String[] lines = r.out().split("\n");
        List<String> header = List.of(lines[0].split(","));
        String handshakes = lines[lines.length - 1].split(",", -1)[header.indexOf("handshakes")];
        assertTrue(header.contains("handshake_p99_ns") && Long.parseLong(handshakes) > 0, r.out());
    }

    @Test
    void closedLoopTextPrintsTheDocumentsFigures() throws Exception {
        NbenchProcess.Result r = client(CLOSED, "--driver", "io", "--out", "r.json");
        JsonNode doc = ResultDocs.read(dir.resolve("r.json"));
        checkDocument(doc);
        checkText(r.out(), doc.path("combinations").get(0));
    }

    @Test
    void reconnectingTextPrintsTheDocumentsConnectFigures() throws Exception {
        NbenchProcess.Result r = client(CLOSED, "--driver", "threads", "--requests-per-connection", "50", "--out", "r.json");
        JsonNode doc = ResultDocs.read(dir.resolve("r.json"));
        checkDocument(doc);
        assertTrue(doc.path("combinations").get(0).path("iterations").get(0).path("connectLatency").isObject());
        checkText(r.out(), doc.path("combinations").get(0));
    }

    @Test
    void openLoopTextPrintsTheDocumentsFigures() throws Exception {
        NbenchProcess.Result r = client(OPEN, "--out", "r.json");
        JsonNode doc = ResultDocs.read(dir.resolve("r.json"));
        checkDocument(doc);
        checkText(r.out(), doc.path("combinations").get(0));
    }

    // ---- the document against its histograms and the load asked for ----

    private static void checkDocument(JsonNode doc) {
        assertEquals(1, doc.path("combinations").size());
        JsonNode c = doc.path("combinations").get(0);
        assertEquals(c.path("summary"), doc.path("summary"), "a single run's summary is also at the top");
        long missed = c.path("summary").path("openLoop").path("rateMissedIterations").asLong();
        List<?> reasons = ResultDocument.MAPPER.convertValue(c.path("reasons"), List.class);
        if (missed == 0) {
            assertEquals(List.of(), reasons, "no reason to FAIL but a missed rate");
        } else {
            // The missed iterations, split by side (a side with none left out), add up to the count.
            assertEquals(1, reasons.size(), "no reason to FAIL but a missed rate: " + reasons);
            Matcher m = Pattern.compile("target rate missed by more than 1% in "
                    + missed + " iteration\\(s\\): (?:(\\d+) below the target)?(?:, )?(?:(\\d+) above it \\(catch-up "
                    + "after a lag\\))?").matcher(reasons.get(0).toString());
            assertTrue(m.matches(), reasons.toString());
            long below = m.group(1) == null ? 0 : Long.parseLong(m.group(1));
            long above = m.group(2) == null ? 0 : Long.parseLong(m.group(2));
            assertEquals(missed, below + above, reasons.toString());
        }
        JsonNode load = c.path("load");
        long asked = load.path("threads").asLong() * load.path("msgsPerThread").asLong();
        List<Double> ps = percentiles(load);
        long runErrors = 0;
        List<JsonNode> measured = new ArrayList<>();
        for (JsonNode it : c.path("iterations")) {
            String where = "iteration " + it.path("index") + (it.path("warmup").asBoolean() ? " (warmup)" : "");
            Histogram h = decode(it.path("histogram"));
            assertEquals(asked, it.path("messages").asLong(), where + ": messages = threads x msgs");
            assertEquals(asked, h.getTotalCount(), where + ": the histogram holds every message");
            percentilesOf(h, it.path("latencyNs"), ps, where + " latencyNs");
            double perSecond = asked * 1e9 / it.path("wallNs").asLong();
            close(perSecond, it.path("msgPerSec").asDouble(), where + " msgPerSec = messages / wall time");
            close(perSecond * load.path("size").asLong() / (1024.0 * 1024.0), it.path("mibPerSec").asDouble(),
                    where + " mibPerSec = messages x size / wall time");
            assertEquals(0, it.path("errors").path("total").asLong(), where);
            assertEquals(0, it.path("clamped").asLong(), where + ": no latency near an hour");
            assertEquals(false, it.path("partial").asBoolean(), where);
            JsonNode res = it.path("resources");
            close((double) res.path("allocatedBytes").asLong() / asked, res.path("allocatedPerMessage").asDouble(),
                    where + " allocatedPerMessage");
            JsonNode open = it.path("openLoop");
            if (load.path("rate").asDouble() > 0) {
                assertEquals(load.path("rate").asDouble(), open.path("targetRate").asDouble(), where + " targetRate");
                assertEquals(asked, open.path("sent").asLong(), where + ": sent = threads x msgs");
                double achieved = asked * 1e9 / it.path("wallNs").asLong();
                close(achieved, open.path("achievedRate").asDouble(), where + " achievedRate = sent / wall time");
                assertEquals(achieved < 0.99 * load.path("rate").asDouble(), open.path("missed").asBoolean(), where);
                Histogram uncorrected = decode(open.path("uncorrectedHistogram"));
                assertEquals(asked, uncorrected.getTotalCount(), where + " uncorrected count");
                percentilesOf(uncorrected, open.path("uncorrectedNs"), ps, where + " uncorrectedNs");
                percentilesOf(decode(open.path("sendLagHistogram")), open.path("sendLagNs"), ps, where + " sendLagNs");
            } else {
                assertTrue(open.isNull(), where + ": the closed loop has no openLoop");
            }
            JsonNode connects = it.path("connectLatency");
            if (load.path("requestsPerConnection").asInt() > 0) {
                Histogram h2 = decode(connects.path("histogram"));
                assertEquals(h2.getTotalCount(), connects.path("count").asLong(), where + " connectLatency.count");
                percentilesOf(h2, connects.path("latencyNs"), ps, where + " connectLatency.latencyNs");
            } else {
                assertTrue(connects.isNull(), where + ": connections kept, no connectLatency");
            }
            runErrors += it.path("errors").path("total").asLong();
            if (!it.path("warmup").asBoolean()) {
                measured.add(it);
            }
        }
        assertEquals(runErrors, c.path("errors").path("total").asLong(), "the run's errors, warmup included");
        checkSummary(c.path("summary"), load, measured, ps);
    }

    private static void checkSummary(JsonNode s, JsonNode load, List<JsonNode> measured, List<Double> ps) {
        int n = load.path("iterations").asInt();
        assertEquals(n, measured.size());
        assertEquals(n, s.path("iterations").asInt());
        assertEquals(n * load.path("threads").asLong() * load.path("msgsPerThread").asLong(), s.path("messages").asLong(),
                "summary messages = iterations x threads x msgs");
        Histogram merged = sum(measured, it -> it.path("histogram"));
        JsonNode latency = s.path("latencyNs");
        percentilesOf(merged, latency.path("merged"), ps, "summary latencyNs.merged");
        assertEquals(merged.getMinValue(), latency.path("min").asLong());
        assertEquals(merged.getMaxValue(), latency.path("max").asLong());
        close(merged.getMean(), latency.path("mean").asDouble(), "summary latencyNs.mean");
        for (double p : ps) {
            String label = Percentiles.label(p);
            interval(measured, it -> CsvColumns.valueAt(decode(it.path("histogram")), p),
                    latency.path("meanOfIterations").path(label), "meanOfIterations." + label);
        }
        interval(measured, it -> it.path("msgPerSec").asDouble(), s.path("throughput"), "throughput");
        close(mean(measured, it -> it.path("mibPerSec").asDouble()), s.path("throughput").path("mibPerSec").asDouble(),
                "throughput.mibPerSec");
        JsonNode res = s.path("resources");
        assertEquals(sumOf(measured, it -> it.path("resources").path("gcCount").asLong()), res.path("gcCount").asLong(),
                "summary gcCount");
        assertEquals(sumOf(measured, it -> it.path("resources").path("gcMillis").asLong()), res.path("gcMillis").asLong(),
                "summary gcMillis");
        close(mean(measured, it -> it.path("resources").path("cpuPercent").asDouble()), res.path("cpuPercent").asDouble(),
                "summary cpuPercent");
        close(mean(measured, it -> it.path("resources").path("allocatedPerMessage").asDouble()),
                res.path("allocatedPerMessage").asDouble(), "summary allocatedPerMessage");
        assertEquals(measured.stream().filter(it -> it.path("resources").path("disturbed").asBoolean()).count(),
                res.path("disturbedIterations").asLong());
        assertEquals(0, s.path("errors").path("total").asLong());
        JsonNode open = s.path("openLoop");
        if (load.path("rate").asDouble() == 0) {
            assertTrue(open.isNull(), "the closed loop has no openLoop summary");
            return;
        }
        assertEquals(load.path("rate").asDouble(), open.path("targetRate").asDouble(), "summary targetRate = --rate");
        close(mean(measured, it -> it.path("openLoop").path("achievedRate").asDouble()),
                open.path("achievedRate").asDouble(), "summary achievedRate");
        assertEquals(measured.stream().filter(it -> it.path("openLoop").path("missed").asBoolean()).count(),
                open.path("rateMissedIterations").asLong());
        assertEquals(sumOf(measured, it -> it.path("openLoop").path("maxInflightHits").asLong()),
                open.path("maxInflightHits").asLong());
        Histogram uncorrected = sum(measured, it -> it.path("openLoop").path("uncorrectedHistogram"));
        percentilesOf(uncorrected, open.path("uncorrectedNs"), ps, "summary openLoop.uncorrectedNs");
        Histogram lag = sum(measured, it -> it.path("openLoop").path("sendLagHistogram"));
        percentilesOf(lag, open.path("sendLagNs"), ps, "summary openLoop.sendLagNs");
        assertEquals(CsvColumns.valueAt(lag, 50) * 10 > CsvColumns.valueAt(merged, 50),
                open.path("sendLagCaveat").asBoolean(), "sendLagCaveat: lag p50 over 10 % of the corrected p50");
    }

    // ---- the text against the document ----

    private static void checkText(String text, JsonNode c) {
        List<String> lines = text.lines().toList();
        JsonNode load = c.path("load");
        List<Double> ps = percentiles(load);
        int line = 0;
        for (JsonNode it : c.path("iterations")) {
            boolean warmup = it.path("warmup").asBoolean();
            String label = (warmup ? "Warmup " : "Iteration ") + it.path("index").asInt() + "/"
                    + load.path(warmup ? "warmup" : "iterations").asInt() + ":";
            while (line < lines.size() && !lines.get(line).startsWith(label)) {
                line++;
            }
            assertTrue(line < lines.size(), label + " in " + text);
            String l = lines.get(line);
            List<String> expected = new ArrayList<>(List.of(
                    Units.count(it.path("messages").asLong()) + " msgs",
                    Units.seconds(it.path("wallNs").asLong()) + " s",
                    Units.rate(it.path("msgPerSec").asDouble()) + " msg/s",
                    " in ", Units.mib(it.path("mibInPerSec").asDouble()) + " out ",
                    Units.mib(it.path("mibOutPerSec").asDouble()) + " MiB/s",
                    "errors " + it.path("errors").path("total").asLong(),
                    "gc " + it.path("resources").path("gcCount").asLong() + "/" + it.path("resources").path("gcMillis")
                            .asLong() + "ms",
                    "alloc " + Units.bytes(it.path("resources").path("allocatedPerMessage").asDouble()) + "/msg",
                    "cpu " + Math.round(it.path("resources").path("cpuPercent").asDouble()) + "%"));
            for (double p : ps) {
                expected.add(Percentiles.label(p) + " " + Units.micros(it.path("latencyNs").path(Percentiles.label(p)).asLong()));
            }
            JsonNode connects = it.path("connectLatency");
            if (connects.isObject()) {
                expected.add("connects " + Units.count(connects.path("count").asLong()) + " p50 "
                        + Units.micros(connects.path("latencyNs").path("p50").asLong()) + " p99 "
                        + Units.micros(connects.path("latencyNs").path("p99").asLong()));
            }
            JsonNode open = it.path("openLoop");
            if (open.isObject()) {
                expected.add("rate " + Units.rate(open.path("achievedRate").asDouble()) + "/"
                        + Units.rate(open.path("targetRate").asDouble()));
                expected.add("uncorrected " + brief(open.path("uncorrectedNs"), "p50", "p99", "p100"));
                expected.add("lag " + brief(open.path("sendLagNs"), "p99", "p100"));
            }
            for (String e : expected) {
                assertTrue(l.contains(e), "'" + e + "' in " + l);
            }
        }
        JsonNode s = c.path("summary");
        JsonNode open = s.path("openLoop");
        int n = s.path("iterations").asInt();
        assertEquals(list(s.path("latencyNs").path("merged"), ps), after(lines, "All " + n + " iterations merged ("
                + Units.count(s.path("messages").asLong()) + " msgs)" + (open.isObject()
                ? ", corrected for coordinated omission:" : ":")));
        if (open.isObject()) {
            assertEquals(list(open.path("uncorrectedNs"), ps), after(lines, "Uncorrected, from each message's actual send"),
                    "the Uncorrected line is summary.openLoop.uncorrectedNs");
            assertEquals(list(open.path("sendLagNs"), ps), after(lines, "Send lag (actual - intended send time"));
            long missed = open.path("rateMissedIterations").asLong();
            // A miss is told as the document's reason tells it: "N iteration(s): B below the target, ..."
            String how = missed > 0 ? c.path("reasons").get(0).asText().substring(
                    "target rate missed by more than 1% in ".length()) : "";
            assertTrue(missed == 0 || how.startsWith(missed + " iteration(s)"), how);
            assertTrue(lines.contains("Rate: " + Units.rate(open.path("achievedRate").asDouble()) + " msg/s achieved of "
                    + Units.rate(open.path("targetRate").asDouble()) + " target" + (missed > 0
                    ? "; MISSED by more than 1% in " + how : "") + "; in-flight cap waits "
                    + Units.count(open.path("maxInflightHits").asLong())), text);
        } else {
            assertTrue(lines.stream().noneMatch(l -> l.startsWith("Uncorrected") || l.startsWith("Rate:")), text);
        }
        if (load.path("requestsPerConnection").asInt() > 0) {
            List<JsonNode> measured = new ArrayList<>();
            c.path("iterations").forEach(it -> {
                if (!it.path("warmup").asBoolean()) {
                    measured.add(it);
                }
            });
            Histogram connects = sum(measured, it -> it.path("connectLatency").path("histogram"));
            StringJoiner j = new StringJoiner(", ");
            for (double p : ps) {
                j.add((p >= 100 ? "max" : Percentiles.label(p)) + ": " + Units.micros(CsvColumns.valueAt(connects, p))
                        + " µs");
            }
            assertTrue(lines.contains("Reconnects: " + Units.count(connects.getTotalCount()) + ", connect latency " + j),
                    "Reconnects: the measured iterations' connect histograms in " + text);
        }
        StringJoiner means = new StringJoiner(", ");
        for (double p : ps) {
            JsonNode m = s.path("latencyNs").path("meanOfIterations").path(Percentiles.label(p));
            means.add(Percentiles.label(p) + ": " + Units.micros(m.path("mean").asDouble()) + " µs ± "
                    + Units.micros(m.path("ci").asDouble()));
        }
        assertEquals(means.toString(), after(lines, "Mean Result for " + n + " iterations (99.9% CI):"));
        JsonNode tp = s.path("throughput");
        assertTrue(lines.contains("Throughput: " + Units.rate(tp.path("mean").asDouble()) + " ± "
                + Units.rate(tp.path("ci").asDouble()) + " msg/s (99.9% CI, N=" + tp.path("n").asInt() + "), "
                + "in " + Units.mib(tp.path("mibInPerSec").asDouble()) + " out "
                + Units.mib(tp.path("mibOutPerSec").asDouble()) + " MiB/s"), text);
        JsonNode res = s.path("resources");
        String client = "Client: cpu " + Math.round(res.path("cpuPercent").asDouble()) + "% of one core, gc "
                + res.path("gcCount").asLong() + " collections (" + res.path("gcMillis").asLong() + " ms), alloc "
                + Units.bytes(res.path("allocatedPerMessage").asDouble()) + "/msg";
        assertTrue(lines.stream().anyMatch(l -> l.startsWith(client)), client + " in " + text);
        assertTrue(lines.contains("Errors: " + c.path("errors").path("total").asLong()), text);
    }

    /** The line after the one that starts with {@code head}. */
    private static String after(List<String> lines, String head) {
        for (int i = 0; i + 1 < lines.size(); i++) {
            if (lines.get(i).startsWith(head)) {
                return lines.get(i + 1);
            }
        }
        throw new AssertionError("no line starting with '" + head + "' in " + String.join("\n", lines));
    }

    /** {@code p25: 1.2 µs, ..., max: 9.9 µs}: a summary's percentile line, from the document's figures. */
    private static String list(JsonNode ns, List<Double> ps) {
        StringJoiner j = new StringJoiner(", ");
        for (double p : ps) {
            j.add((p >= 100 ? "max" : Percentiles.label(p)) + ": " + Units.micros(ns.path(Percentiles.label(p)).asLong())
                    + " µs");
        }
        return j.toString();
    }

    /** {@code p50 1.2 p99 3.4 max 5.6}: an iteration line's short form of some percentiles. */
    private static String brief(JsonNode ns, String... labels) {
        StringJoiner j = new StringJoiner(" ");
        for (String label : labels) {
            j.add((label.equals("p100") ? "max" : label) + " " + Units.micros(ns.path(label).asLong()));
        }
        return j.toString();
    }

    // ---- figures worked out here ----

    private static List<Double> percentiles(JsonNode load) {
        List<Double> ps = new ArrayList<>();
        load.path("percentiles").forEach(p -> ps.add(p.asDouble()));
        assertEquals(Percentiles.parse(PERCENTILES), ps, "the percentiles asked for");
        return ps;
    }

    private static Histogram decode(JsonNode encoded) {
        return HistogramCodec.decode(encoded.asText());
    }

    private static Histogram sum(List<JsonNode> iterations, Function<JsonNode, JsonNode> histogram) {
        Histogram all = new Histogram(3);
        iterations.forEach(it -> all.add(decode(histogram.apply(it))));
        return all;
    }

    private static void percentilesOf(Histogram h, JsonNode ns, List<Double> ps, String what) {
        for (double p : ps) {
            assertEquals(CsvColumns.valueAt(h, p), ns.path(Percentiles.label(p)).asLong(), what + " " + Percentiles.label(p));
        }
    }

    private static double mean(List<JsonNode> its, ToDoubleFunction<JsonNode> figure) {
        return its.stream().mapToDouble(figure).average().orElse(Double.NaN);
    }

    private static long sumOf(List<JsonNode> its, ToLongFunction<JsonNode> figure) {
        return its.stream().mapToLong(figure).sum();
    }

    /** {@code {mean, ci, n}}: the mean and the 99.9 % Student-t half width over the iterations, worked out here. */
    private static void interval(List<JsonNode> its, ToDoubleFunction<JsonNode> figure, JsonNode node, String what) {
        double[] v = its.stream().mapToDouble(figure).toArray();
        double mean = Arrays.stream(v).average().orElseThrow();
        double ss = 0;
        for (double x : v) {
            ss += (x - mean) * (x - mean);
        }
        double half = new TDistribution(v.length - 1).inverseCumulativeProbability(1 - (1 - 0.999) / 2)
                * Math.sqrt(ss / (v.length - 1)) / Math.sqrt(v.length);
        close(mean, node.path("mean").asDouble(), what + ".mean");
        close(half, node.path("ci").asDouble(), what + ".ci");
        assertEquals(v.length, node.path("n").asInt(), what + ".n");
    }

    private static void close(double expected, double actual, String what) {
        assertEquals(expected, actual, Math.abs(expected) * 1e-9, what);
    }
}
