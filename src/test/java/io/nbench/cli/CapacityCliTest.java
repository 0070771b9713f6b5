package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.client.ExitCode;
import io.nbench.protocol.Protocol;
import io.nbench.report.CapacityTable;
import io.nbench.report.json.ResultDocument;
import io.nbench.testkit.NbenchProcess;
import io.nbench.testkit.ResultDocs;
import io.nbench.testkit.ServerProcess;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
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
     * Issue 36's check on a server whose capacity is known: a pool of 4 threads sleeping 10 ms per request serves
     * at most 400 requests/s, set by the sleeps, not the CPU: a hard upper bound, right on any machine. A
     * closed-loop maximum measured between two searches (its best iteration) is a noisy LOWER estimate: a stall
     * of a busy machine only lowers it (beside stress-ng it measured 388/s while the search rightly passed 396/s).
     * So: each answer is at most the bound, each bracket's failing end is not below the closed-loop maximum, and
     * the two searches in a row give brackets that overlap to within the resolution asked. Each answer was measured again at the end (confirmed)
     * and carries the spread of its runs. The objective is the median, 10 x the work: a machine's stalls of
     * hundreds of milliseconds reach a short step's p99 at any rate near the capacity (docs/measurement.md).
     */
    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void aSleepBoundServerSearchedTwiceGivesOverlappingBracketsAboveItsClosedLoopMaximum(@TempDir Path dir)
            throws Exception {
        try (ServerProcess server = ServerProcess.start(Map.of(), "--port", "0", "--executor-threads", "4",
                "--executor-queue", "100000", "--work", "10ms", "--work-mode", "sleep", "--duration", "5m")) {
            String port = Integer.toString(server.port);
            JsonNode first = search(dir.resolve("1.json"), port, "p50<=100ms", List.of("--threads", "8",
                    "--window", "2"));
            double closedLoop = closedLoopMax(port, List.of("--threads", "16", "--window", "2"));
            JsonNode second = search(dir.resolve("2.json"), port, "p50<=100ms", List.of("--threads", "8",
                    "--window", "2"));
            double low = 0;
            double high = Double.POSITIVE_INFINITY;
            for (JsonNode c : List.of(first, second)) {
                assertEquals("found", c.get("outcome").asText(), c.toString());
                double passed = c.get("passed").asDouble();
                double failed = c.get("failed").isNumber() ? c.get("failed").asDouble() : Double.POSITIVE_INFINITY;
                System.out.printf("capacity [%.0f, %.0f], closed-loop max %.0f, bound %.0f%n", passed, failed,
                        closedLoop, SLEEP_BOUND);
                assertTrue(passed <= SLEEP_BOUND * 1.01, "the answer " + passed + " above the bound " + SLEEP_BOUND);
                assertTrue(failed >= closedLoop * 0.99, "the bracket [" + passed + ", " + failed + "] below the "
                        + "closed-loop max " + closedLoop);
                low = Math.max(low, passed);
                high = Math.min(high, failed);
                // Confirmed: the answer was measured again after the bracket closed, its runs' spread reported.
                JsonNode spread = c.get("spread").get("passed");
                assertTrue(spread.get("runs").asInt() >= 2, c.toString());
                assertTrue(spread.get("answeredMin").asDouble() <= spread.get("answeredMax").asDouble(), c.toString());
            }
            // Overlapping to within the resolution asked (2 %): the server's capacity itself moves by about that
            // with the machine (a sleep overshoots by the timer's slack and the scheduler's delay): in CI, alone,
            // the searches a minute apart gave [388, 394] and [395, 400], each run at 394 answering 386-389/s.
            // Issue 36's searches were 40 % apart.
            double resolution = first.get("resolution").asDouble(); // the default, 2 %
            assertTrue(low <= high * (1 + resolution), "the two brackets do not overlap within "
                    + resolution * 100 + " %: " + first + "\n" + second);
        }
    }

    /** One search against {@code port}, short steps, bounded by --max-time: its document's capacity section. */
    private static JsonNode search(Path out, String port, String slo, List<String> more) throws Exception {
        List<String> args = new ArrayList<>(List.of("client", "--port", port, "--find-rate", "--slo", slo,
                "--iteration-time", "400ms", "--warmup", "1", "--iterations", "2", "--max-time", "60s",
                "--out", out.toString()));
        args.addAll(more);
        CliTest.Outcome o = CliTest.run(args.toArray(String[]::new));
        assertEquals("", o.err());
        JsonNode doc = ResultDocs.read(Files.readString(out));
        JsonNode capacity = doc.get("capacity");
        assumeConfirmed(o.out());
        // Every failure above the pass named the machine (steal on a VM): the search rightly stops at a lower bound,
        // and a bracket, which this helper's callers check, needs a quieter machine.
        String machine = o.out().lines().filter(l -> l.contains("(limited by the machine: ")).findFirst().orElse(null);
        assumeFalse(machine != null, "the machine limited the search: " + machine);
        assertEquals(ExitCode.OK, o.code(), o.out());
        double passed = capacity.get("passed").asDouble();
        String answer = o.out().lines().filter(l -> l.startsWith("capacity: ")).findFirst().orElseThrow();
        assertTrue(answer.contains(CapacityTable.rate(passed) + " requests/s within " + slo + " [between "
                + CapacityTable.rate(passed) + " passed ("), answer);
        if (capacity.get("failed").isNumber()) {
            assertTrue(passed < capacity.get("failed").asDouble(), capacity.toString());
            assertTrue(answer.contains(CapacityTable.rate(capacity.get("failed").asDouble()) + " failed ("), answer);
        }
        // Every step is a combination of the document, named, with its cause; a step that passed kept to its
        // rate, sent and answered.
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
            assertEquals(s.get("passed").asBoolean(), s.get("cause").asText().equals("passed"), s.toString());
            if (s.get("passed").asBoolean()) {
                assertTrue(s.get("achievedRate").asDouble() >= 0.99 * s.get("targetRate").asDouble(), s.toString());
                assertTrue(s.get("answeredRate").asDouble() >= 0.99 * s.get("targetRate").asDouble(), s.toString());
            }
        }
        return capacity;
    }

    /**
     * The client's limit is not the server's: against a server with no work, under an objective it never breaches
     * (p99 within 5 s), the client is what falls behind (it sends short of the rate, waits on its in-flight cap).
     * Those steps do not bound the server's capacity, so the answer is "at least" the highest rate passed, the
     * outcome client_limited with its own exit code, and no rate failed for the server. Today: "capacity: 179,010
     * requests/s ... PASS" (issue 36). A cap of 2 messages in flight per connection brings the client's limit
     * within a few steps.
     */
    @Test
    void aServerWithNoWorkUnderALooseObjectiveIsClientLimited(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("r.json");
        CliTest.Outcome o = CliTest.run("client", "--port", CliTest.port(Protocol.FRAMED), "--find-rate", "--slo",
                "p99<=5s", "--rate-resolution", "25%", "--max-inflight", "2", "--iteration-time", "300ms",
                "--warmup", "0", "--iterations", "2", "--max-time", "30s", "--out", out.toString());
        JsonNode capacity = ResultDocs.read(Files.readString(out)).get("capacity");
        assumeConfirmed(o.out());
        assertEquals("client_limited", capacity.get("outcome").asText(), o.out());
        assertEquals(ExitCode.CLIENT_LIMITED, o.code(), o.out());
        assertTrue(capacity.get("failed").isNull(), "no rate failed for the server: " + capacity);
        double passed = capacity.get("passed").asDouble();
        for (JsonNode s : capacity.get("steps")) {
            if (!s.get("passed").asBoolean() && s.get("targetRate").asDouble() > passed) {
                assertTrue(List.of("sent short", "in-flight cap hit", "machine disturbed")
                        .contains(s.get("cause").asText()), s.toString());
            }
        }
        String answer = o.out().lines().filter(l -> l.startsWith("capacity: ")).findFirst().orElseThrow();
        // The client's limit, or the machine's when steal named every failing run there (a VM with 5-10 % steal):
        // either way not the server's.
        String at = "capacity: at least " + CapacityTable.rate(passed) + " requests/s within p99<=5s (limited by the ";
        assertTrue(answer.startsWith(at + "client: ") || answer.startsWith(at + "machine: "), answer);
        assertTrue(answer.endsWith("the server's limit was not reached)"), answer);
        assertTrue(o.out().contains("Result: CLIENT_LIMITED (exit code " + ExitCode.CLIENT_LIMITED + ")")
                || o.out().contains("(exit code " + ExitCode.CLIENT_LIMITED + ")"), o.out());
    }

    /**
     * A server whose capacity falls during the search (issue 36: a stand-in for a leak or a filling cache) does
     * not keep its first figure: once a step has passed, the test stops the server (SIGSTOP) for 70 ms of every
     * 100 ms; the passing rate, measured again before the answer is printed, no longer passes, so the outcome is
     * unstable, not PASS. Before: the first rate's answer, PASS, exit 0; and (CI, 2026-11-29, a machine with 6 %
     * steal) PASS at a rate whose three runs measured again all failed, each named 'machine disturbed' by the steal
     * though the client's send lag was a few ms beside a p99 of 80 ms.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aServerMadeSlowerDuringTheSearchIsUnstable(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("r.json");
        try (ServerProcess server = ServerProcess.start(Map.of(), "--port", "0", "--duration", "3m")) {
            List<String> command = new ArrayList<>(NbenchProcess.command(List.of()));
            command.addAll(List.of("client", "--port", Integer.toString(server.port), "--find-rate", "--slo",
                    "p99<=20ms", "--rate-resolution", "10%", "--iteration-time", "300ms", "--warmup", "0",
                    "--iterations", "2", "--max-time", "60s", "--out", out.toString()));
            Process p = new ProcessBuilder(command).start();
            Thread dutyCycle = null;
            try {
                CompletableFuture<String> err = RunFilesTest.text(p.getErrorStream());
                BufferedReader reader = new BufferedReader(new InputStreamReader(p.getInputStream(),
                        StandardCharsets.UTF_8));
                StringBuilder text = new StringBuilder();
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    text.append(line).append('\n');
                    if (line.startsWith("capacity step ") && line.contains(": pass [")) {
                        break; // a rate passed and was decided: from now on the server is slower
                    }
                }
                dutyCycle = new Thread(() -> stopAndContinue(server.pid()), "duty-cycle");
                dutyCycle.setDaemon(true);
                dutyCycle.start();
                reader.lines().forEach(l -> text.append(l).append('\n'));
                assertTrue(p.waitFor(90, TimeUnit.SECONDS), "the client ends by --max-time");
                dutyCycle.interrupt();
                dutyCycle.join();
                JsonNode capacity = ResultDocs.read(Files.readString(out)).get("capacity");
                assertEquals("unstable", capacity.get("outcome").asText(), text.toString());
                assertEquals(ExitCode.UNSTABLE, p.exitValue(), text + err.get());
                String answer = text.toString().lines().filter(l -> l.startsWith("capacity: ")).findFirst()
                        .orElseThrow();
                // The server's cause, or (a CPU hog beside the test stalling the client as long as the server)
                // the machine's: either way the answer is not confirmed, never PASS.
                String passed = CapacityTable.rate(capacity.get("passed").asDouble()) + "/s passed at ";
                assertTrue(answer.contains("the server's capacity changed during the search: " + passed)
                        || answer.contains("the answer could not be confirmed: " + passed), answer);
            } finally {
                if (dutyCycle != null) {
                    dutyCycle.interrupt();
                    dutyCycle.join();
                }
                NbenchProcess.destroyTree(p);
            }
        }
    }

    /** SIGSTOP for 70 ms, SIGCONT for 30 ms, until interrupted; the process is left running (SIGCONT last). */
    private static void stopAndContinue(long pid) {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                signal("-STOP", pid);
                try {
                    Thread.sleep(70);
                } finally {
                    signal("-CONT", pid);
                }
                Thread.sleep(30);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void signal(String signal, long pid) throws IOException {
        try {
            new ProcessBuilder("kill", signal, Long.toString(pid)).start().waitFor();
        } catch (InterruptedException e) {
            // SIGCONT must still go out: retry once without the interrupt flag, then keep it.
            new ProcessBuilder("kill", signal, Long.toString(pid)).start();
            Thread.currentThread().interrupt();
        }
    }

    /**
     * A search whose answer failed again only for the machine (steal, a stalled client) ends unstable, "could not
     * be confirmed": the machine was too disturbed for the property a case checks, which needs a quiet one. The
     * case is then skipped with that line as its reason, not passed (CI's VM: 5-10 % steal, answered 322/s at a
     * passing 388/s while the machine was disturbed).
     */
    private static void assumeConfirmed(String out) {
        String line = out.lines().filter(l -> l.contains("the answer could not be confirmed")).findFirst()
                .orElse(null);
        assumeFalse(line != null, "the machine was too disturbed to confirm the answer: " + line);
    }

    /**
     * The server's best closed-loop iteration, msg/s, with {@code load} (for the pool: 32 requests in flight over
     * 16 connections, 8 per pool thread); 0 when a starved machine measured none. A lower estimate of the
     * server's maximum: a stall only lowers an iteration, so the best of a few is taken.
     */
    private static double closedLoopMax(String port, List<String> load) throws Exception {
        List<String> args = new ArrayList<>(List.of("client", "--port", port, "--iteration-time", "500ms",
                "--warmup", "1", "--iterations", "4", "--format", "json"));
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
        assumeConfirmed(o.out());
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
        // the lowest rate's schedule by more than 1 %); 7 when the client, not the server, limited one (both
        // servers share the client's JVM here, and under p99<=1s the client is what falls behind first).
        assumeConfirmed(o.out());
        assertTrue(o.code() == ExitCode.OK || o.code() == ExitCode.THRESHOLD || o.code() == ExitCode.CLIENT_LIMITED,
                o.out() + o.err());
        List<String> block = o.out().lines().dropWhile(l -> !l.startsWith("=== capacity (A = server ")).toList();
        assertTrue(block.size() >= 3, o.out());
        assertTrue(block.get(1).startsWith("A  server "), block.toString());
        assertTrue(block.get(2).startsWith("B  server "), block.toString());
        if (o.code() == ExitCode.OK || o.code() == ExitCode.CLIENT_LIMITED) {
            assertTrue(block.get(1).contains(" requests/s within p99<=1s ["), block.toString());
            assertTrue(block.get(2).contains(" x A ["), block.toString());
        }
        assertFalse(o.out().contains("=== comparison of the servers"), "steps at different rates are not compared");
        List<String> files = new ArrayList<>();
        try (var listing = Files.list(dir)) {
            listing.map(Path::toString).filter(f -> f.endsWith(".json")).sorted().forEach(files::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertEquals(2, files.size(), files.toString());
        CliTest.Outcome c = CliTest.run("compare", files.get(0), files.get(1));
        assertTrue(c.out().contains("=== capacity (A = " + files.get(0) + ") ==="), c.out());
        assertTrue(c.out().lines().anyMatch(l -> l.startsWith("B  " + files.get(1) + ": ")), c.out());
        // The JSON and Markdown formats carry them too, checked against the documents' own capacity objects.
        CliTest.Outcome j = CliTest.run("compare", "--format", "json", files.get(0), files.get(1));
        assertEquals(ExitCode.OK, j.code(), j.out() + j.err());
        JsonNode capacities = ResultDocument.MAPPER.readTree(j.out()).path("capacities");
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
        assumeConfirmed(o.out());
        assertTrue(o.code() == ExitCode.OK || o.code() == ExitCode.THRESHOLD || o.code() == ExitCode.CLIENT_LIMITED,
                o.out() + o.err());
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
                CompletableFuture<String> err = RunFilesTest.text(p.getErrorStream());
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
