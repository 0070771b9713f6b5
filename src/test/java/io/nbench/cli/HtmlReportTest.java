package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nbench.client.ExitCode;
import io.nbench.protocol.Protocol;
import io.nbench.report.json.ResultDocument;
import io.nbench.stats.HistogramCodec;
import io.nbench.testkit.ResultDocs;
import io.nbench.testkit.ScriptedServer.Action;
import io.nbench.testkit.ScriptedServer;
import io.nbench.testkit.ServerProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.io.TempDir;

/** {@code nbench report --html} on documents of real runs: a page that opens offline and draws the documents' own figures. */
class HtmlReportTest {

    @TempDir
    static Path dir;

    static Path closed;
    static Path netty;
    static Path open;

    private static Path produce(String name, String... more) throws Exception {
        Path out = dir.resolve(name + ".json");
        List<String> args = new ArrayList<>(List.of("client", "--port", CliTest.port(Protocol.FRAMED), "--threads", "2",
                "--msgs", "300", "--warmup", "1", "--iterations", "3", "--size", "100", "--out", out.toString()));
        args.addAll(List.of(more));
        CliTest.Outcome o = CliTest.run(args.toArray(new String[0]));
        boolean rateMissed = o.code() == ExitCode.FAILED && o.out().contains("target rate missed"); // a busy machine
        assertTrue(o.code() == ExitCode.OK || rateMissed, o.out() + o.err());
        ResultDocs.read(out);
        return out;
    }

    @BeforeAll
    static void runs() throws Exception {
        closed = produce("nio", "--impl", "nio");
        netty = produce("netty", "--impl", "netty");
        open = produce("open", "--rate", "2000");
    }

    /** The data the page draws: the JSON inside its application/json script element. */
    static JsonNode data(String page) throws Exception {
        Matcher m = Pattern.compile("<script type=\"application/json\" id=\"nbench-data\">(.*?)</script>", Pattern.DOTALL)
                .matcher(page);
        assertTrue(m.find(), "the page carries its data");
        return ResultDocument.MAPPER.readTree(m.group(1));
    }

    private static Histogram merged(JsonNode combination, String field) {
        Histogram sum = new Histogram(3);
        for (JsonNode it : combination.path("iterations")) {
            if (!it.path("warmup").asBoolean()) {
                JsonNode h = field.equals("histogram") ? it.path("histogram") : it.path("openLoop").path(field);
                sum.add(HistogramCodec.decode(h.asText()));
            }
        }
        return sum;
    }

    @Test
    void thePageDrawsEachDocumentsOwnFiguresAndOpensOffline() throws Exception {
        Path html = dir.resolve("report.html");
        CliTest.Outcome o = CliTest.run("report", closed.toString(), netty.toString(), open.toString(), "--html", html.toString());
        assertEquals(ExitCode.OK, o.code(), o.err());
        assertEquals("", o.err());
        assertEquals("Report: " + html + " (3 file(s), 3 combination(s))", o.out().strip());
        String page = Files.readString(html);

        // Offline: every script and style is inline; nothing names a network resource to load.
        assertFalse(Pattern.compile("<(script|link|img|iframe)[^>]*(src|href)=", Pattern.CASE_INSENSITIVE).matcher(page).find(),
                "no element loads anything");
        assertTrue(page.contains("uPlot"), "the charting library is inlined");

        JsonNode data = data(page);
        assertEquals(3, data.path("files").size());
        for (int f = 0; f < 3; f++) {
            JsonNode doc = ResultDocument.MAPPER.readTree(List.of(closed, netty, open).get(f).toFile());
            JsonNode c = doc.path("combinations").get(0);
            JsonNode drawn = data.path("files").get(f).path("combinations").get(0);
            assertEquals(c.path("name").asText(), drawn.path("name").asText());
            assertEquals(c.path("summary").path("throughput").path("mean").asDouble(),
                    drawn.path("summary").path("throughput").asDouble());
            Histogram h = merged(c, "histogram");
            assertEquals(h.getValueAtPercentile(99) / 1000.0, drawn.path("summary").path("p99").asDouble());
            assertEquals(h.getMaxValue() / 1000.0, drawn.path("summary").path("max").asDouble());
            // The spectrum: x = 1/(1-q) from 1 (the minimum's end) up to no more than the messages measured,
            // latency never decreasing along it.
            JsonNode x = drawn.path("spectrum").path("x");
            JsonNode y = drawn.path("spectrum").path("corrected");
            assertEquals(x.size(), y.size());
            assertEquals(1.0, x.get(0).asDouble());
            assertTrue(x.get(x.size() - 1).asDouble() <= h.getTotalCount());
            assertTrue(x.size() >= 20, "points over at least two decades: " + x);
            for (int i = 1; i < y.size(); i++) {
                assertTrue(y.get(i).asDouble() >= y.get(i - 1).asDouble(), y.toString());
            }
            assertEquals(h.getValueAtPercentile(99) / 1000.0, y.get(20).asDouble(), "x = 100 is p99");
            assertEquals(3, drawn.path("iterations").size(), "the measured iterations, not the warmup");
            int measured = 0;
            for (JsonNode it : c.path("iterations")) {
                if (!it.path("warmup").asBoolean()) { // the page says which iterations completed no message by these
                    JsonNode shown = drawn.path("iterations").get(measured++);
                    assertEquals(it.path("messages").asLong(), shown.path("messages").asLong());
                    assertEquals(it.path("errors").path("total").asLong(), shown.path("errors").asLong());
                }
            }
            JsonNode seconds = c.path("intervals");
            assertEquals(seconds.size(), drawn.path("overTime").path("t").size(), "every second of the run");
            assertEquals(seconds.get(0).path("p99Ns").asLong() / 1000.0, drawn.path("overTime").path("p99").get(0).asDouble());
            if (f == 2) {
                Histogram u = merged(c, "uncorrectedHistogram");
                assertEquals(u.getValueAtPercentile(99) / 1000.0, drawn.path("spectrum").path("uncorrected").get(20).asDouble());
            } else {
                assertTrue(drawn.path("spectrum").path("uncorrected").isMissingNode(), "closed loop: one latency");
            }
        }
        // Across files: nbench compare's figures, ratios to the first file.
        JsonNode comparison = data.path("comparison");
        assertEquals("nbench-compare/1", comparison.path("schema").asText());
        assertEquals(closed.toString(), comparison.path("files").get(0).asText());
    }

    /**
     * HTTP: an HTTP run's responses by status code are in its combination's part of the page, as the document has
     * them, in a table of their own (codes, counts, shares) that a framed run's combination does not get. From a
     * real client run against {@code nbench server --protocol http} whose pool of one thread and a queue of one
     * answers most requests 503; read from the page's data, and in headless Chromium from the rendered page. The
     * run counts 503 as its success ({@code --success-status 503}, as a test of an overload answer would), so the
     * page marks the 200s as errors and not the 503s: the run's own success statuses, not 2xx, mark a code.
     */
    @Test
    void anHttpRunsResponsesByStatusAreShownForItsCombinationOnly() throws Exception {
        Path http = dir.resolve("http.json");
        try (ServerProcess server = ServerProcess.start(Map.of(), "--protocol", "http", "--impl", "nio", "--port", "0",
                "--work", "20ms", "--executor-threads", "1", "--executor-queue", "1")) {
            CliTest.Outcome o = CliTest.run("client", "--impl", "nio", "--url", "http://127.0.0.1:" + server.port + "/",
                    "--threads", "4", "--msgs", "15", "--warmup", "1", "--iterations", "2", "--max-errors", "100%",
                    "--success-status", "503", "--out", http.toString());
            assertEquals(ExitCode.OK, o.code(), o.out() + o.err());
        }
        JsonNode statuses = ResultDocs.read(http).path("combinations").path(0).path("errors").path("statuses");
        assertTrue(statuses.has("200") && statuses.has("503"), statuses.toString());
        Path html = dir.resolve("statuses.html");
        CliTest.Outcome o = CliTest.run("report", closed.toString(), http.toString(), "--html", html.toString());
        assertEquals(ExitCode.OK, o.code(), o.err());
        JsonNode files = data(Files.readString(html)).path("files");
        assertTrue(files.get(0).path("combinations").get(0).path("statuses").isMissingNode(), "framed: no statuses");
        assertEquals(statuses, files.get(1).path("combinations").get(0).path("statuses"));
        assertEquals(List.of("200", "503"), List.copyOf(ResultDocs.read(http).path("combinations").path(0).path("errors")
                .path("statuses").properties().stream().map(Map.Entry::getKey).toList()), "the document lists codes in order");
        if (!chromium()) {
            return;
        }
        JsonNode all0 = probe(html).path("before").path("statusTables");
        List<JsonNode> byCode = new ArrayList<>();
        List<JsonNode> byClass = new ArrayList<>();
        all0.forEach(t -> (t.path("caption").asText().startsWith("HTTP latency by status class") ? byClass : byCode).add(t));
        assertEquals(1, byCode.size(), "one table of codes, the HTTP combination's: " + all0);
        assertEquals(1, byClass.size(), "one table of status classes, the HTTP combination's: " + all0);
        JsonNode table = byCode.get(0);
        String name = files.get(1).path("combinations").get(0).path("name").asText();
        assertTrue(byClass.get(0).path("combination").asText().startsWith(name), byClass.toString());
        // Each class's responses over the measured iterations, as the document's iterations hold them.
        Map<String, Long> classes = new TreeMap<>();
        for (JsonNode it : ResultDocs.read(http).path("combinations").path(0).path("iterations")) {
            if (!it.path("warmup").asBoolean()) {
                it.path("latencyByStatusClass").properties().forEach(e ->
                        classes.merge(e.getKey(), e.getValue().path("count").asLong(), Long::sum));
            }
        }
        classes.values().removeIf(n -> n == 0);
        Map<String, Long> drawn = new TreeMap<>();
        JsonNode classRows = byClass.get(0).path("rows");
        for (int i = 1; i < classRows.size(); i++) {
            drawn.put(classRows.get(i).get(0).asText(), Long.parseLong(classRows.get(i).get(1).asText().replace(",", "")));
        }
        assertEquals(classes, drawn, "the class table's responses are the measured iterations' by class");
        assertTrue(table.path("combination").asText().startsWith(name), table.toString());
        assertEquals("HTTP responses by status (whole run, warmup included)", table.path("caption").asText());
        assertEquals("[\"status\",\"responses\",\"share\"]", table.path("rows").get(0).toString());
        long all = 0;
        for (JsonNode n : statuses) {
            all += n.asLong();
        }
        List<String> codes = new ArrayList<>();
        statuses.fieldNames().forEachRemaining(codes::add);
        codes.sort(Comparator.comparingInt(Integer::parseInt)); // a row per code, in code order
        assertEquals(codes.size() + 1, table.path("rows").size(), table.toString());
        for (int i = 0; i < codes.size(); i++) {
            JsonNode row = table.path("rows").get(i + 1);
            long n = statuses.path(codes.get(i)).asLong();
            assertEquals(codes.get(i), row.get(0).asText());
            assertEquals(n, Long.parseLong(row.get(1).asText().replace(",", "")), row.toString());
            assertEquals(100.0 * n / all, Double.parseDouble(row.get(2).asText().replace(" %", "")), 0.05, row.toString());
            assertEquals(!codes.get(i).equals("503"), table.path("marked").get(i + 1).asBoolean(),
                    "a code is marked an error when it is not a success by --success-status 503: " + table);
        }
    }

    /**
     * The page really draws in a browser: headless Chromium (installed by .ci/run) runs its script offline and
     * every chart is there, 4 per combination and 2 for the comparison; a script error would leave no count.
     */
    @Test
    @EnabledIf("chromium")
    void aBrowserDrawsEveryChart() throws Exception {
        Path html = dir.resolve("browser.html");
        assertEquals(ExitCode.OK, CliTest.run("report", closed.toString(), netty.toString(), open.toString(), "--html",
                html.toString()).code());
        String dom = dom(html);
        Matcher charts = Pattern.compile("<body data-charts=\"(\\d+)\"").matcher(dom);
        assertTrue(charts.find(), "the script ran to its end: " + dom.substring(0, Math.min(400, dom.length())));
        // Per combination: spectrum, throughput per iteration, throughput and latency over time; and the
        // comparison's same four with every file overlaid.
        assertEquals(Integer.toString(3 * 4 + 4), charts.group(1));
        // compare's CPU time per message is in ns like the latencies, scaled like them, but is no latency.
        assertTrue(dom.contains("client CPU/msg (µs)") || dom.contains("client CPU/msg (ms)"), "the CPU/msg row");
        assertFalse(dom.contains("CPU/msg latency"), "CPU per message named a latency");
    }

    /**
     * What a reader sees, read in headless Chromium from the rendered page (report-probe.js, put on a copy of it,
     * reads the DOM and the charts' laid-out axes): the issue 30.2 defects. Before, the comparison showed latency
     * in ns under a µs header, charts were a third of the page wide, latency axes linear, iteration ticks
     * fractional, legends '– µs', and a file with an iteration that measured nothing a table of "n/a".
     */
    @Test
    @EnabledIf("chromium")
    void aReaderSeesUnitsForTheValuesVerdictsInWordsAndPageWideCharts() throws Exception {
        Path gap = dir.resolve("gap.json");
        // The first 20 requests rejected: the first measured iteration completes no message, the others do.
        try (ScriptedServer rejectFirst = new ScriptedServer(i -> i < 20 ? Action.REJECT : Action.ANSWER)) {
            CliTest.run("client", "--port", Integer.toString(rejectFirst.address().getPort()), "--threads", "1", "--msgs", "20",
                    "--warmup", "0", "--iterations", "3", "--out", gap.toString());
        }
        JsonNode gapDoc = ResultDocs.read(gap);
        assertEquals(0, gapDoc.path("combinations").get(0).path("iterations").get(0).path("messages").asLong(), gapDoc.toString());
        // Messages in every iteration, but one whose CPU time read 0 (the OS counts it in 10 ms ticks; a short
        // iteration on a busy machine can read 0, as netty's fixture once did): its CPU is not compared, and why.
        Path cpu0 = dir.resolve("cpu0.json");
        ObjectNode cpuDoc = (ObjectNode) ResultDocs.read(netty);
        // The fixture's own iterations may read 0 too (all three did on a fast CI machine): the others get a figure.
        for (JsonNode it : cpuDoc.path("combinations").get(0).path("iterations")) {
            if (!it.path("warmup").asBoolean()) {
                ((ObjectNode) it.path("resources")).put("cpuPercent", it.path("index").asInt() == 2 ? 0.0 : 50.0);
            }
        }
        ResultDocument.MAPPER.writeValue(cpu0.toFile(), cpuDoc);
        List<Path> inputs = List.of(closed, netty, open, gap, cpu0);
        Path html = dir.resolve("reader.html");
        List<String> args = new ArrayList<>(List.of("report"));
        inputs.forEach(p -> args.add(p.toString()));
        args.addAll(List.of("--html", html.toString()));
        assertEquals(ExitCode.OK, CliTest.run(args.toArray(new String[0])).code());
        JsonNode comparison = data(Files.readString(html)).path("comparison");
        JsonNode files = data(Files.readString(html)).path("files");
        JsonNode probe = probe(html);
        JsonNode page = probe.path("before");

        // Charts at the page's width: each as wide as the page's content (not a third of it).
        double content = page.path("contentWidth").asDouble();
        assertTrue(content > 900, "a 1280 px window: " + content);
        for (JsonNode c : page.path("charts")) {
            double width = c.path("width").asDouble();
            assertTrue(width >= 0.95 * content && width <= content + 1, c.path("title") + ": " + width + " px of " + content);
            // The y-axis title stands beside the tick labels, not over them.
            assertTrue(c.path("yTickLabelSpace").asDouble() >= c.path("yWidestTickLabel").asDouble(), c.toString());
            for (JsonNode v : c.path("legend")) {
                assertFalse(v.asText().contains("–"), "a legend shows a value or nothing, no placeholder: " + c);
            }
            String kind = c.path("kind").asText();
            if (kind.equals("spectrum") || kind.equals("latency-over-time")) {
                assertEquals(3, c.path("yDistr").asInt(), "latency on a log axis: " + c);
                for (JsonNode tick : c.path("yValues")) {
                    assertTrue(tick.asText().matches("[\\d.,]+ (µs|ms|s)"), "a latency tick carries its unit: " + c);
                }
            }
            if (kind.equals("iterations")) {
                assertFalse(c.path("xValues").isEmpty(), c.toString());
                for (JsonNode tick : c.path("xValues")) {
                    assertTrue(tick.asText().matches("\\d+"), "iterations are whole numbers: " + c);
                }
            }
        }
        assertEquals(inputs.size() * 4 + 4, page.path("charts").size(), "four per combination and four for the comparison");
        // The switch: latency axes linear, the other charts as they were.
        JsonNode after = probe.path("afterToggle").path("charts");
        assertEquals(page.path("charts").size(), after.size());
        for (JsonNode c : after) {
            if (c.path("kind").asText().matches("spectrum|latency-over-time")) {
                assertEquals(1, c.path("yDistr").asInt(), "the switch makes it linear: " + c);
            }
        }

        // The verdicts in words, at the top: "netty: throughput 1.23× nio [1.10, 1.37], faster", the figures nbench compare's.
        JsonNode block = comparison.path("combinations").get(0);
        String base = label(inputs.get(0));
        for (int k = 1; k < 3; k++) {
            JsonNode cell = metric(block, "throughput").path("others").get(k - 1);
            String n = "([\\d.,]+(?:e[+-]\\d+)?)";
            Matcher v = Pattern.compile(Pattern.quote(label(inputs.get(k))) + ": throughput " + n + "× "
                    + Pattern.quote(base) + " \\[" + n + ", " + n + "\\], (.+)").matcher(String.join("\n", texts(page.path("verdicts"))));
            assertTrue(v.find(), "a verdict for " + inputs.get(k) + ": " + page.path("verdicts"));
            assertClose(cell.path("ratio").asDouble(), number(v.group(1)), 0.005, v.group());
            assertClose(cell.path("low").asDouble(), number(v.group(2)), 0.005, v.group());
            assertClose(cell.path("high").asDouble(), number(v.group(3)), 0.005, v.group());
            assertEquals(cell.path("verdictText").asText(), v.group(4));
        }
        // What could not be compared, and why, instead of rows of n/a.
        assertFalse(page.path("summaryText").asText().contains("n/a"), page.path("summaryText").asText());
        assertFalse(page.path("comparisonText").asText().contains("n/a"), page.path("comparisonText").asText());
        List<String> notCompared = texts(page.path("notCompared"));
        String gapLine = notCompared.stream().filter(l -> l.startsWith(label(gap) + ": ")).findFirst().orElseThrow(
                () -> new AssertionError("gap is listed as not compared: " + notCompared));
        assertTrue(gapLine.startsWith(label(gap) + ": throughput, latency"), gapLine);
        assertTrue(gapLine.contains(" not compared with " + base + ": in " + label(gap)
                + ", measured iteration 1 of 3 completed no message (20 errors)."), gapLine);
        String cpuLine = notCompared.stream().filter(l -> l.startsWith(label(cpu0) + ": ")).findFirst().orElseThrow(
                () -> new AssertionError("cpu0 is listed as not compared: " + notCompared));
        // Then the baseline's own iterations that read 0, if any, before the reason.
        assertTrue(cpuLine.startsWith(label(cpu0) + ": client CPU, client CPU/msg not compared with " + base + ": in "
                + label(cpu0) + ", measured iteration 2 of 3 read no client CPU time"), cpuLine);
        assertTrue(cpuLine.endsWith("the OS counts CPU time in clock ticks (10 ms on Linux) and the iteration's work took less "
                + "than one; lengthen the iterations (--msgs or --iteration-time) to compare CPU."), cpuLine);
        for (String line : notCompared) {
            if (!line.startsWith(label(gap) + ": ")) {
                // The fixtures' own short iterations may read 0 CPU time too: only CPU is then left out, and said why.
                assertTrue(line.matches("[^:]+: (client|server) CPU.*the OS counts CPU time in clock ticks.*"), line);
            }
        }

        // The comparison table: a row per metric whose header names the unit its values are shown in, a unit
        // chosen for them (the largest shown between 1 and 1000), the values nbench compare's (ns) in that unit.
        JsonNode rows = page.path("comparisonTables").get(0);
        List<String> columns = texts(rows.get(0)).subList(1, rows.get(0).size());
        assertEquals(List.of(base + " (baseline)", label(netty), label(open), label(cpu0)), columns, "the file not compared has no column");
        for (int r = 1; r < rows.size(); r++) {
            JsonNode row = rows.get(r);
            JsonNode m = block.path("metrics").get(r - 1);
            Matcher header = Pattern.compile("(.+) \\((.+)\\)").matcher(row.get(0).path("text").asText());
            assertTrue(header.matches(), row.toString());
            String unit = header.group(2);
            double max = 0;
            for (int col = 1; col < row.size(); col++) {
                // Columns are the files compared: gap (the third other file) has none.
                int other = col == 1 ? -1 : List.of(0, 1, 3).get(col - 2);
                double nanos = other < 0 ? m.path("baseline").path("mean").asDouble() : m.path("others").get(other).path("mean").asDouble();
                double shown = number(row.get(col).path("mean").asText());
                max = Math.max(max, shown);
                if (m.path("unit").asText().equals("ns")) {
                    assertClose(nanos, shown * NANOS_PER.get(unit), 0.005, row.toString());
                } else {
                    assertEquals(m.path("unit").asText(), unit, row.toString());
                }
                if (col > 1) {
                    assertFalse(row.get(col).path("ratio").asText().isEmpty(), "a ratio under each figure: " + row);
                }
            }
            if (m.path("unit").asText().equals("ns")) {
                assertTrue(max < 1000 && (max >= 1 || unit.equals("µs")), "a unit for the values: " + row);
            }
        }
        // Each file's own table: p50 ... max in the unit its header names, the page's data (µs) in that unit.
        for (int f = 0; f < inputs.size(); f++) {
            JsonNode t = page.path("fileTables").get(f);
            List<String> head = texts(t.get(0));
            JsonNode summary = files.get(f).path("combinations").get(0).path("summary");
            String[] fields = {"p50", "p99", "p999", "max"};
            for (int i = 0; i < fields.length; i++) {
                String name = fields[i].replace("p999", "p99.9") + " (";
                int col = head.indexOf(head.stream().filter(h -> h.startsWith(name)).findFirst()
                        .orElseThrow(() -> new AssertionError("a " + name + "unit) column: " + head)));
                String unit = head.get(col).replaceAll(".*\\((.+)\\)", "$1");
                String shown = t.get(1).get(col).path("text").asText();
                if (summary.path(fields[i]).isNull()) {
                    assertEquals("–", shown);
                } else {
                    assertClose(summary.path(fields[i]).asDouble() * 1000, number(shown) * NANOS_PER.get(unit), 0.005, head + " " + t.get(1));
                    assertTrue(number(shown) < 1000 && (number(shown) >= 1 || unit.equals("µs")), head + " " + t.get(1));
                }
            }
        }
    }

    private static final Map<String, Double> NANOS_PER = Map.of("µs", 1e3, "ms", 1e6, "s", 1e9);

    private static String label(Path p) {
        return p.getFileName().toString().replaceAll("\\.json$", "");
    }

    private static JsonNode metric(JsonNode block, String name) {
        for (JsonNode m : block.path("metrics")) {
            if (m.path("metric").asText().equals(name)) {
                return m;
            }
        }
        throw new AssertionError("no metric " + name + " in " + block);
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.isObject() ? n.path("text").asText() : n.asText()));
        return out;
    }

    private static double number(String shown) {
        return Double.parseDouble(shown.replace(",", ""));
    }

    /** Within the rounding of a figure shown to three significant digits. */
    private static void assertClose(double expected, double shown, double relative, String where) {
        assertTrue(Math.abs(expected - shown) <= relative * Math.abs(expected) + 1e-9, "expected " + expected + ", shown " + shown + ": " + where);
    }

    /** The page as {@code report-probe.js} reads it in headless Chromium, before and after the latency-axis switch. */
    static JsonNode probe(Path html) throws Exception {
        String script;
        try (var in = HtmlReportTest.class.getResourceAsStream("report-probe.js")) {
            script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Path probed = html.resolveSibling("probed-" + html.getFileName());
        Files.writeString(probed, Files.readString(html).replaceFirst("<head>", Matcher.quoteReplacement(
                "<head><script>" + script + "</script>")));
        Matcher m = Pattern.compile("<script type=\"application/json\" id=\"nbench-probe\">(.*?)</script>", Pattern.DOTALL)
                .matcher(dom(probed, "--window-size=1280,2400"));
        assertTrue(m.find(), "the probe ran after the page drew its charts");
        return ResultDocument.MAPPER.readTree(m.group(1));
    }

    static final String CHROMIUM = "/usr/bin/chromium";

    /** The page as headless Chromium leaves it after its script ran, asserting the script logged nothing. */
    static String dom(Path html, String... options) throws Exception {
        // --enable-logging=stderr: the page's console messages (a script error among them) go to stderr.
        Path console = html.resolveSibling(html.getFileName() + ".console.log");
        List<String> command = new ArrayList<>(List.of(CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu",
                "--enable-logging=stderr", "--v=0", "--virtual-time-budget=5000"));
        command.addAll(List.of(options));
        command.addAll(List.of("--dump-dom", html.toUri().toString()));
        Process p = new ProcessBuilder(command).redirectError(console.toFile()).start();
        String dom = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "chromium ended");
        List<String> errors = Files.readAllLines(console).stream().filter(l -> l.contains("CONSOLE")
                || l.contains("Uncaught") || l.contains("net::ERR")).toList();
        assertEquals(List.of(), errors, "no console message and no failed request");
        return dom;
    }

    static boolean chromium() {
        return Files.isExecutable(Path.of(CHROMIUM));
    }

    @Test
    void aSweepIsDrawnCombinationByCombination() throws Exception {
        Path sweep = produce("sweep", "--window", "1,4");
        Path html = dir.resolve("sweep.html");
        assertEquals(ExitCode.OK, CliTest.run("report", sweep.toString(), "--html", html.toString()).code());
        JsonNode drawn = data(Files.readString(html)).path("files").get(0).path("combinations");
        JsonNode doc = ResultDocs.read(sweep).path("combinations");
        assertEquals(2, drawn.size());
        for (int c = 0; c < 2; c++) {
            assertEquals(doc.get(c).path("name").asText(), drawn.get(c).path("name").asText());
            assertEquals(merged(doc.get(c), "histogram").getValueAtPercentile(99) / 1000.0,
                    drawn.get(c).path("summary").path("p99").asDouble());
        }
    }

    @Test
    void textFromADocumentCannotBreakOutOfThePage() throws Exception {
        ObjectNode doc = (ObjectNode) ResultDocument.MAPPER.readTree(closed.toFile());
        String hostile = "</script><script>alert('x')</script>&<!--\u2028";
        ((ObjectNode) doc.path("environment")).put("host", hostile);
        Path crafted = dir.resolve("crafted.json");
        Files.writeString(crafted, ResultDocument.pretty(doc));
        Path html = dir.resolve("crafted.html");
        CliTest.Outcome o = CliTest.run("report", crafted.toString(), "--html", html.toString());
        assertEquals(ExitCode.OK, o.code(), o.err());
        String page = Files.readString(html);
        assertFalse(page.contains("<script>alert"), "the value stays data");
        assertEquals(hostile, data(page).path("files").get(0).path("environment").path("host").asText(),
                "and reads back exactly");
    }

    @Test
    void aDirectoryIsItsJsonFilesAndBadInputIsOneLine() throws Exception {
        Path results = Files.createDirectories(dir.resolve("results"));
        Files.copy(closed, results.resolve("a.json"));
        Files.copy(netty, results.resolve("b.json"));
        Files.writeString(results.resolve("notes.txt"), "not a result");
        Path html = dir.resolve("dir.html");
        CliTest.Outcome o = CliTest.run("report", results.toString(), "--html", html.toString());
        assertEquals(ExitCode.OK, o.code(), o.err());
        assertEquals(2, data(Files.readString(html)).path("files").size());

        CliTest.Outcome missing = CliTest.run("report", dir.resolve("none.json").toString(), "--html", html.toString());
        assertEquals(ExitCode.COULD_NOT_RUN, missing.code());
        assertEquals("nbench report: " + dir.resolve("none.json") + ": no such file", missing.err().strip());

        Path other = Files.writeString(dir.resolve("other.json"), "{\"schema\":\"something/2\"}");
        CliTest.Outcome wrong = CliTest.run("report", other.toString(), "--html", html.toString());
        assertEquals(ExitCode.COULD_NOT_RUN, wrong.code());
        assertEquals(1, wrong.err().strip().lines().count(), wrong.err());
        assertTrue(wrong.err().contains("expected 'nbench-result/1'"), wrong.err());

        CliTest.Outcome noHtml = CliTest.run("report", closed.toString());
        assertEquals(ExitCode.USAGE, noHtml.code());
        assertEquals("nbench: nothing to do: give --html FILE, --merge, or both (see 'nbench report --help')", noHtml.err().strip());

        CliTest.Outcome unwritable = CliTest.run("report", closed.toString(), "--html", dir.resolve("no/such/dir/r.html").toString());
        assertEquals(ExitCode.COULD_NOT_RUN, unwritable.code());
        assertTrue(unwritable.err().startsWith("nbench report: cannot write --html "), unwritable.err());
        assertNotNull(data(Files.readString(html)), "the earlier page is intact");
    }
}
