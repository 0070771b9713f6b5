package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.client.ExitCode;
import io.nbench.protocol.Protocol;
import io.nbench.report.CapacityTable;
import io.nbench.testkit.NbenchProcess;
import io.nbench.testkit.ResultDocs;
import io.nbench.testkit.ServerProcess;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code nbench client --find-rate} as a user runs it: usage errors, a search against a server of known capacity. */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class CapacityCliTest {

    /** 4 executor threads sleeping 10 ms per request serve at most 400 requests/s, whatever the CPU. */
    private static final double SLEEP_BOUND = 4 * 100;

    @Test
    void badCombinationsAreOneLineUsageErrors() {
        String port = CliTest.port(Protocol.FRAMED);
        expectUsage("--find-rate needs an objective", "client", "--port", port, "--find-rate");
        expectUsage("--slo belongs to a capacity search: add --find-rate", "client", "--port", port, "--slo",
                "p99<=10ms");
        expectUsage("--max-time belongs to a capacity search", "client", "--port", port, "--max-time", "1m");
        expectUsage("--rate-resolution '0%' is not a percentage", "client", "--port", port, "--find-rate", "--slo",
                "p99<=10ms", "--rate-resolution", "0%");
        expectUsage("leave out --rate", "client", "--port", port, "--find-rate", "--slo", "p99<=10ms", "--rate",
                "1000");
        expectUsage("give the --threshold expressions as --slo", "client", "--port", port, "--find-rate", "--slo",
                "p99<=10ms", "--threshold", "p99<1ms");
        expectUsage("--slo 'p99<<1ms'", "client", "--port", port, "--find-rate", "--slo", "p99<<1ms");
        expectUsage("the capacity of one combination", "client", "--port", port, "--find-rate", "--slo",
                "p99<=10ms", "--size", "1k,2k");
    }

    private static void expectUsage(String message, String... args) {
        CliTest.Outcome o = CliTest.run(args);
        assertEquals(ExitCode.USAGE, o.code(), o.err());
        assertTrue(o.err().contains(message), o.err());
        assertEquals("", o.out());
    }

    /**
     * The check on a server whose capacity is known: a pool of 4 threads sleeping 10 ms per request serves
     * at most 400 requests/s, set by the sleeps, not the CPU (the 1 ms is measured in docs/measurement.md:
     * at 4,000/s a busy 2-core machine's CPU, not the sleeps, sets the ceiling and moves it by 20 % from minute to
     * minute). The answer lies within [0.85, 1.0] x the server's measured maximum, its best closed-loop iteration
     * before and after the search (a stall only lowers a closed-loop figure), with 2 % for the noise of that
     * maximum and the 1 % a step may answer short. The objective is the median, 10 x the work: a machine's stalls
     * of hundreds of milliseconds reach a short step's p99 at any rate near the capacity (measured in
     * docs/measurement.md), so a p99 objective measures the machine there, not the server.
     */
    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void theCapacityOfASleepBoundServerLiesWithin85And100PercentOfItsClosedLoopMaximum(@TempDir Path dir)
            throws Exception {
        try (ServerProcess server = ServerProcess.start(Map.of(), "--port", "0", "--executor-threads", "4",
                "--executor-queue", "100000", "--work", "10ms", "--work-mode", "sleep", "--duration", "5m")) {
            liesWithin85And100PercentOfTheClosedLoopMaximum(dir, server, "p50<=100ms", SLEEP_BOUND,
                    List.of("--threads", "16", "--window", "2"), List.of());
        }
    }

    /**
     * The same check with {@code --work-mode delay}: no pool, each response completed 100 ms later by a timer, so
     * the server itself has no rate bound short of its CPU. What bounds the open loop is the client's own cap on
     * messages in flight: connections x {@code --max-inflight} / D = 4 x 10 / 100 ms = 400/s (a due message
     * waits beyond the cap, so the step sends short of its target); the closed loop with the same window, 4 x 10
     * in flight, reaches the same 400/s. docs/measurement.md has the figures.
     */
    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void theCapacityAgainstATimerDelayedServerIsTheClientsInFlightCapOverTheDelay(@TempDir Path dir)
            throws Exception {
        try (ServerProcess server = ServerProcess.start(Map.of(), "--port", "0", "--work", "100ms", "--work-mode",
                "delay", "--duration", "5m")) {
            liesWithin85And100PercentOfTheClosedLoopMaximum(dir, server, "p50<=500ms", 4 * 10 / 0.1,
                    List.of("--window", "10"), List.of("--max-inflight", "10"));
        }
    }

    /**
     * The search against {@code server} lies within [0.85, 1.02] x the best closed-loop iteration (with
     * {@code closedLoop}'s load) before and after it, which lies at or below {@code bound}.
     */
    private static void liesWithin85And100PercentOfTheClosedLoopMaximum(Path dir, ServerProcess server, String slo,
            double bound, List<String> closedLoop, List<String> searchOptions) throws Exception {
        String port = Integer.toString(server.port);
        double before = closedLoopMax(port, closedLoop);
        Path out = dir.resolve("capacity.json");
        List<String> args = new ArrayList<>(List.of("client", "--port", port, "--find-rate", "--slo", slo,
                "--iteration-time", "500ms", "--warmup", "1", "--iterations", "3", "--max-time", "150s",
                "--out", out.toString()));
        args.addAll(searchOptions);
        CliTest.Outcome o = CliTest.run(args.toArray(String[]::new));
        double max = Math.max(before, closedLoopMax(port, closedLoop));
        assertEquals("", o.err());
        assertEquals(ExitCode.OK, o.code(), o.out());
        JsonNode doc = ResultDocs.read(Files.readString(out));
        JsonNode capacity = doc.get("capacity");
        double passed = capacity.get("passed").asDouble();
        System.out.printf("capacity %.0f of closed-loop max %.0f (%.3f)%n", passed, max, passed / max);
        assertTrue(max <= bound * 1.01, "closed-loop max " + max + " above the bound " + bound);
        assertTrue(passed <= max * 1.02, "the answer " + passed + " above the closed-loop max " + max);
        assertTrue(passed >= max * 0.85, "the answer " + passed + " below 0.85 x the closed-loop max " + max
                + ":\n" + o.out());
        String answer = o.out().lines().filter(l -> l.startsWith("capacity: ")).findFirst().orElseThrow();
        assertTrue(answer.contains(CapacityTable.rate(passed) + " requests/s within " + slo + " [between "
                + CapacityTable.rate(passed) + " passed and "), answer);
        if (capacity.get("failed").isNumber()) {
            assertTrue(passed < capacity.get("failed").asDouble(), capacity.toString());
            assertTrue(answer.contains(CapacityTable.rate(capacity.get("failed").asDouble()) + " failed"), answer);
        }
        // Every step is a combination of the document, named, and a step that passed kept to its rate, sent
        // and answered.
        JsonNode steps = capacity.get("steps");
        List<String> searched = new ArrayList<>();
        for (JsonNode c : doc.get("combinations")) {
            if (!c.get("keys").get("rate").asText().equals("closed-loop")) {
                searched.add(c.get("name").asText());
            }
        }
        assertEquals("closed-loop", doc.get("combinations").get(0).get("keys").get("rate").asText());
        assertEquals(searched.size(), steps.size());
        for (int i = 0; i < steps.size(); i++) {
            JsonNode s = steps.get(i);
            assertEquals(searched.get(i), s.get("combination").asText());
            if (s.get("passed").asBoolean()) {
                assertTrue(s.get("achievedRate").asDouble() >= 0.99 * s.get("targetRate").asDouble(), s.toString());
                assertTrue(s.get("answeredRate").asDouble() >= 0.99 * s.get("targetRate").asDouble(), s.toString());
            }
        }
    }

    /**
     * The server's best closed-loop iteration, msg/s, with {@code load} (for the pool: 32 requests in flight over
     * 16 connections, 8 per pool thread); 0 when a starved machine measured none. The best of 5: beside stress-ng one run's iterations went
     * 184-331/s and the next one's 379-392/s (a stall only lowers it; the search's steps meet the same machine).
     * Not fewer (nor 1 warmup iteration instead of 2): the best of 4 after 1, before and after searches whose steps
     * had 2 measured iterations instead of 3, measured 347/s and 362/s at load average 28 while the searches passed
     * 370/s and 398/s, and both tests failed.
     */
    private static double closedLoopMax(String port, List<String> load) throws Exception {
        List<String> args = new ArrayList<>(List.of("client", "--port", port, "--iteration-time", "1s", "--warmup",
                "2", "--iterations", "5", "--format", "json"));
        args.addAll(load);
        CliTest.Outcome o = CliTest.run(args.toArray(String[]::new));
        double best = 0;
        for (JsonNode it : ResultDocs.read(o.out()).get("combinations").get(0).get("iterations")) {
            if (!it.get("warmup").asBoolean()) {
                best = Math.max(best, it.get("msgPerSec").asDouble());
            }
        }
        return best;
    }

    /**
     * {@code --max-time}: no step starts that would end after it; the search stops with the bracket so far, which
     * is printed and written, every step kept.
     */
    @Test
    void maxTimeStopsTheSearchWithTheBracketSoFar(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("r.json");
        CliTest.Outcome o = CliTest.run("client", "--port", CliTest.port(Protocol.FRAMED), "--find-rate", "--slo",
                "p99<=1s", "--rate-resolution", "0.01%", "--iteration-time", "100ms", "--warmup", "0",
                "--iterations", "2", "--max-time", "1s", "--out", out.toString());
        JsonNode capacity = ResultDocs.read(Files.readString(out)).get("capacity");
        assertEquals("stopped", capacity.get("outcome").asText(), o.out());
        assertFalse(capacity.get("steps").isEmpty(), capacity.toString());
        assertTrue(o.out().contains("stopped by --max-time"), o.out());
        assertEquals(capacity.get("passed").isNumber() ? ExitCode.OK : ExitCode.THRESHOLD, o.code(), o.out());
        long lines = o.out().lines().filter(l -> l.startsWith("capacity step ")).count();
        assertEquals(capacity.get("steps").size(), lines, o.out());
        List<String> table = o.out().lines().dropWhile(l -> !l.startsWith("CAPACITY SEARCH")).toList();
        assertTrue(table.size() >= 3 + 1 + capacity.get("steps").size() + 1, o.out());
    }

    /**
     * {@code run --find-rate}: the client warmed up against every server, then each server's capacity searched in
     * one piece and compared by their brackets; {@code compare} of the kept documents prints the same capacities.
     */
    @Test
    void runComparesTheCapacityOfEachServerAndCompareReadsThemBack(@TempDir Path dir) throws Exception {
        CliTest.Outcome o = CliTest.run("run", "--in-process", "--find-rate", "--slo", "p99<=1s",
                "--rate-resolution", "25%", "--iteration-time", "100ms", "--warmup", "1", "--iterations", "2",
                "--max-time", "20s", "--results-dir", dir.toString());
        // The client warmed up against every server before the first search, so the first server's search does
        // not meet the coldest client: a warmup line per server, all before the first search.
        List<String> lines = o.out().lines().toList();
        int firstSearch = lines.indexOf(lines.stream().filter(l -> l.startsWith("=== measuring server ")).findFirst()
                .orElseThrow());
        List<String> warmups = lines.subList(0, firstSearch).stream().filter(l -> l.startsWith("Warmup 1/1, server "))
                .toList();
        List<String> warmed = warmups.stream().map(l -> l.substring("Warmup 1/1, server ".length(), l.indexOf(':')))
                .distinct().toList();
        assertEquals(2, warmed.size(), o.out());
        // 0 when every server's search found a rate; 3 when one found none (a client starved of CPU misses even
        // the lowest rate's schedule by more than 1 %).
        assertTrue(o.code() == ExitCode.OK || o.code() == ExitCode.THRESHOLD, o.out() + o.err());
        List<String> block = o.out().lines().dropWhile(l -> !l.startsWith("=== capacity (A = server ")).toList();
        assertTrue(block.size() >= 3, o.out());
        assertTrue(block.get(1).startsWith("A  server "), block.toString());
        assertTrue(block.get(2).startsWith("B  server "), block.toString());
        if (o.code() == ExitCode.OK) {
            assertTrue(block.get(1).contains(" requests/s within p99<=1s ["), block.toString());
            assertTrue(block.get(2).contains(" x A ["), block.toString());
        }
        assertFalse(o.out().contains("=== comparison of the servers"), "steps at different rates are not compared");
        List<String> files = new ArrayList<>();
        try (var listing = Files.list(dir)) {
            listing.map(Path::toString).filter(f -> f.endsWith(".json")).sorted().forEach(files::add);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        assertEquals(2, files.size(), files.toString());
        CliTest.Outcome c = CliTest.run("compare", files.get(0), files.get(1));
        assertTrue(c.out().contains("=== capacity (A = " + files.get(0) + ") ==="), c.out());
        assertTrue(c.out().lines().anyMatch(l -> l.startsWith("B  " + files.get(1) + ": ")), c.out());
        // The JSON and Markdown formats carry them too, checked against the documents' own capacity objects.
        CliTest.Outcome j = CliTest.run("compare", "--format", "json", files.get(0), files.get(1));
        assertEquals(ExitCode.OK, j.code(), j.out() + j.err());
        JsonNode capacities = io.nbench.report.json.ResultDocument.MAPPER.readTree(j.out()).path("capacities");
        assertEquals(2, capacities.size(), j.out());
        List<JsonNode> searched = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            JsonNode doc = ResultDocs.read(Path.of(files.get(i))).path("capacity");
            searched.add(doc);
            JsonNode shown = capacities.get(i);
            assertEquals(files.get(i), shown.path("file").asText());
            assertEquals(doc.path("objective").asText(), shown.path("objective").asText());
            assertEquals(doc.path("outcome").asText(), shown.path("outcome").asText());
            for (String end : List.of("passed", "failed")) {
                assertEquals(doc.path(end).isNull() || doc.path(end).isMissingNode(), shown.path(end).isNull(), end);
                assertEquals(doc.path(end).asDouble(), shown.path(end).asDouble(), end);
            }
        }
        assertTrue(capacities.get(0).path("against").isNull(), "A is not compared with itself");
        if (!searched.get(0).path("passed").isNull() && !searched.get(1).path("passed").isNull()) {
            assertEquals(searched.get(1).path("passed").asDouble() / searched.get(0).path("passed").asDouble(),
                    capacities.get(1).path("against").path("ratio").asDouble(), 1e-9, j.out());
        }
        CliTest.Outcome m = CliTest.run("compare", "--format", "markdown", files.get(0), files.get(1));
        assertTrue(m.out().contains("#### Capacity (A = `" + files.get(0) + "`)"), m.out());
        assertTrue(m.out().contains("- B `" + files.get(1) + "`: "), m.out());
    }

    /**
     * {@code report --html} of a search: the page carries the steps and each latency objective's limit (in µs),
     * and, in a browser, draws latency against rate with the objective as a line, without a script error.
     */
    @Test
    void theHtmlReportDrawsLatencyAgainstRateWithTheObjective(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("r.json");
        CliTest.Outcome o = CliTest.run("client", "--port", CliTest.port(Protocol.FRAMED), "--find-rate", "--slo",
                "p99<=1s", "--slo", "errors<=1%", "--rate-resolution", "30%", "--iteration-time", "100ms",
                "--warmup", "0", "--iterations", "2", "--max-time", "3s", "--out", out.toString());
        assertTrue(o.code() == ExitCode.OK || o.code() == ExitCode.THRESHOLD, o.out() + o.err());
        Path html = dir.resolve("r.html");
        assertEquals(ExitCode.OK, CliTest.run("report", out.toString(), "--html", html.toString()).code());
        JsonNode drawn = HtmlReportTest.data(Files.readString(html)).path("files").get(0).path("capacity");
        JsonNode capacity = ResultDocs.read(Files.readString(out)).get("capacity");
        assertEquals(capacity.get("steps").size(), drawn.path("steps").size());
        assertEquals(1, drawn.path("limits").size(), "one latency objective; errors<=1% is no latency: " + drawn);
        assertEquals("p99<=1s", drawn.path("limits").get(0).path("expression").asText());
        assertEquals(1_000_000.0, drawn.path("limits").get(0).path("limit").asDouble(), "1 s in µs");
        if (HtmlReportTest.chromium()) {
            String dom = HtmlReportTest.dom(html);
            assertTrue(dom.contains("capacity search: latency against rate (p99&lt;=1s and errors&lt;=1%)"), dom);
            assertTrue(dom.contains("objective p99&lt;=1s"), "the objective's line in the legend");
        }
    }

    /**
     * SIGINT (or SIGTERM, where this JVM ignores SIGINT) during a search: the step under way ends, the table and
     * the bracket so far are printed and written with every step, and the exit code is 130.
     */
    @Test
    void sigintStopsTheSearchAndKeepsEveryStep(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("r.json");
        try (ServerProcess server = ServerProcess.start(Map.of(), "--port", "0", "--duration", "3m")) {
            List<String> command = new ArrayList<>(NbenchProcess.command(List.of()));
            command.addAll(List.of("client", "--port", Integer.toString(server.port), "--find-rate", "--slo",
                    "p99<=1s", "--rate-resolution", "0.001%", "--iteration-time", "200ms", "--warmup", "0",
                    "--iterations", "2", "--out", out.toString()));
            Process p = new ProcessBuilder(command).start();
            try {
                java.util.concurrent.CompletableFuture<String> err = RunFilesTest.text(p.getErrorStream());
                BufferedReader reader = new BufferedReader(new InputStreamReader(p.getInputStream(),
                        StandardCharsets.UTF_8));
                StringBuilder text = new StringBuilder();
                int steps = 0;
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    text.append(line).append('\n');
                    if (line.startsWith("capacity step ") && ++steps == 2) {
                        break; // two steps judged, the third under way
                    }
                }
                assertEquals(0, new ProcessBuilder("kill", RunFilesTest.interruptSignal(), Long.toString(p.pid()))
                        .start().waitFor());
                reader.lines().forEach(l -> text.append(l).append('\n'));
                assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the client ends after SIGINT");
                assertEquals(ExitCode.INTERRUPTED, p.exitValue(), text + err.get());
                assertEquals("", err.get());
                assertTrue(text.toString().contains("(interrupted)\nResult: INTERRUPTED (exit code 130)"), text.toString());
                JsonNode doc = ResultDocs.read(Files.readString(out));
                assertEquals("INTERRUPTED", doc.get("status").asText());
                assertEquals("interrupted", doc.get("capacity").get("outcome").asText());
                assertTrue(doc.get("capacity").get("steps").size() >= 2, doc.get("capacity").toString());
                assertTrue(doc.get("combinations").size() >= 1 + doc.get("capacity").get("steps").size(),
                        "every step's figures kept, the one cut short too");
            } finally {
                NbenchProcess.destroyTree(p);
            }
        }
    }
}
