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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
        // comparison's overlaid spectra and throughputs.
        assertEquals(Integer.toString(3 * 4 + 2), charts.group(1));
    }

    static final String CHROMIUM = "/usr/bin/chromium";

    /** The page as headless Chromium leaves it after its script ran, asserting the script logged nothing. */
    static String dom(Path html) throws Exception {
        // --enable-logging=stderr: the page's console messages (a script error among them) go to stderr.
        Path console = html.resolveSibling(html.getFileName() + ".console.log");
        Process p = new ProcessBuilder(CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr",
                "--v=0", "--virtual-time-budget=5000", "--dump-dom", html.toUri().toString())
                .redirectError(console.toFile()).start();
        String dom = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), "chromium ended");
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
