package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.client.ExitCode;
import io.nbench.report.json.ResultDocument;
import io.nbench.stats.HistogramCodec;
import io.nbench.testkit.ResultDocs;
import io.nbench.units.Units;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** nbench run: real child-JVM servers, the client against each, a comparison, nothing left behind. */
class RunCommandTest {

    @Test
    void comparesServersInChildJvmsAndLeavesNoProcessBehind(@TempDir Path dir) throws Exception {
        CliTest.Outcome o = CliTest.run("run", "--servers", "netty,nio", "--threads", "2", "--msgs", "200",
                "--warmup", "0", "--iterations", "2", "--results-dir", dir.toString());
        assertEquals(0, o.code(), o.out() + o.err());
        assertTrue(o.out().startsWith("nbench server: netty listening on 127.0.0.1:"), o.out()); // one line each
        assertTrue(o.out().contains("\nnbench server: nio listening on 127.0.0.1:"), o.out());
        assertTrue(o.out().contains("nbench server: nio listening on 127.0.0.1:"), o.out());
        assertTrue(o.out().contains("\nnetty: server metrics after"), "each server's metrics: " + o.out());
        assertTrue(o.out().contains("\nnio: server metrics after"), "each server's metrics: " + o.out());
        assertTrue(o.out().contains("=== comparison of the servers (A = netty) ==="), o.out());
        // Each round one line (not the client's report of it, nor its advice to a client run alone), its msg/s the
        // one of that round's iteration in the server's document.
        assertFalse(o.out().contains("Iteration 1/1") || o.out().contains("use --iterations 2 or more"), o.out());
        assertFalse(o.out().contains("  iterations: 0 warmup + 1 measured") || o.out().contains("  plan: "),
                "a round's plan is not run's: " + o.out());
        // Two servers in 2 rounds, no warmup: 52 lines here, 3 of them the comparison's note on N=2 (the defaults,
        // 5 rounds after 2 warmup rounds, print 8 lines more and not the note: 59 of the "under 60"; 355
        // lines before). The machine's warnings (an interval too wide, iterations DISTURBED by steal) come on a
        // noisy machine only and are not counted: the CI run that printed 56 lines had two of them per server.
        long counted = o.out().lines().filter(l -> !l.startsWith("Warning: ")).count();
        assertTrue(counted <= 52, counted + " lines besides the machine's warnings:\n" + o.out());
        for (String server : List.of("netty", "nio")) {
            JsonNode iterations = ResultDocs.read(dir.resolve(server + ".json")).path("combinations").path(0)
                    .path("iterations");
            for (int round = 1; round <= 2; round++) {
                String prefix = "Round " + round + "/2, server " + server + ": ";
                List<String> lines = o.out().lines().filter(l -> l.startsWith(prefix)).toList();
                assertEquals(1, lines.size(), o.out());
                JsonNode it = iterations.path(round - 1);
                assertEquals(round, it.path("index").asInt(), iterations.toString());
                long rate = Math.round(it.path("messages").asLong() * 1e9 / it.path("wallNs").asLong());
                assertTrue(lines.get(0).startsWith(prefix + Units.count(rate) + " msg/s, p50 "),
                        lines.get(0) + " vs " + it);
            }
        }
        // Each column is named by its server; the block by the client's transport, as client= (not impl=).
        assertTrue(o.out().contains("  A: server netty, " + dir.resolve("netty.json")), o.out());
        assertTrue(o.out().contains("  B: server nio, " + dir.resolve("nio.json")), o.out());
        assertTrue(o.out().contains("\nclient=netty,"), o.out());
        assertFalse(o.out().contains("impl=netty,"), o.out());
        String table = o.out().substring(o.out().indexOf("=== comparison"));
        table.lines().forEach(line -> assertTrue(line.length() <= 120, "over 120 columns: " + line));
        assertTrue(o.out().contains("throughput"), o.out());
        assertTrue(Files.isRegularFile(dir.resolve("netty.json")));
        assertTrue(Files.isRegularFile(dir.resolve("nio.json")));
        assertEquals(0, ProcessHandle.current().children().filter(ProcessHandle::isAlive).count(),
                "every child server stopped");
        assertEquals("", o.err());
    }

    /**
     * The progress line's estimate covers run's whole measurement, not the round it is in: 2 servers x 2 rounds of
     * one 1.5 s iteration; the first update (about 1 s into the first round) has that round's 0.5 s and the three
     * later rounds' 4.5 s left. Before: each round's own, {@code 0:00 left}. The run gives --no-server-stats, whose
     * effect is checked on it too.
     */
    @Test
    void theProgressLinesEstimateIsWhatIsLeftOfTheWholeRun() {
        CliTest.Outcome o = CliTest.run("run", "--servers", "netty,nio", "--threads", "1", "--iteration-time", "1500ms",
                "--warmup", "0", "--iterations", "2", "--no-server-stats", "--progress", "always");
        assertEquals(0, o.code(), o.out() + o.err());
        assertTrue(o.out().contains("=== 2 round(s), every server in each, 0:06 of iterations"), o.out());
        Matcher first = Pattern.compile("^iteration 1/1: .* elapsed, ~(\\d+):(\\d\\d) "
                + "left", Pattern.MULTILINE).matcher(o.err());
        assertTrue(first.find(), o.err());
        int left = Integer.parseInt(first.group(1)) * 60 + Integer.parseInt(first.group(2));
        // 4.5 s of later rounds, plus what is left of this one (none if the update came late on a busy machine).
        assertTrue(left >= 4 && left <= 6, "the first update's estimate: " + first.group() + "\n" + o.err());
        // --no-server-stats turns off the servers' figures that run reads from their monitors by default (see
        // echoServersWithTheirExecutorsReportTheServersCpu): no server line, no server CPU, no monitor started.
        assertFalse(o.out().contains("  server: "), o.out());
        assertFalse(o.out().contains("server CPU"), o.out());
        assertFalse(o.out().contains("monitor on"), o.out());
    }

    /**
     * Echo servers with their frameworks' own executors, the server's CPU read through each child's monitor
     * (on by default): under each iteration, in the result documents, and beside the client's CPU in the
     * comparison (--no-server-stats turning it off is checked on theProgressLinesEstimateIsWhatIsLeftOfTheWholeRun's
     * run).
     */
    @Test
    void echoServersWithTheirExecutorsReportTheServersCpu(@TempDir Path dir) throws Exception {
        CliTest.Outcome o = CliTest.run("run", "--servers", "netty,mina", "--protocol", "echo", "--size", "2k",
                "-O", "netty.executor=2", "-O", "mina.executor=2", "-O", "mina.read-buffer=2048", "--threads", "2",
                "--msgs", "300", "--warmup", "0", "--iterations", "2", "--results-dir", dir.toString(), "--verbose");
        assertEquals(0, o.code(), o.out() + o.err());
        assertEquals("", o.err());
        assertTrue(o.out().contains("executor=DefaultEventExecutorGroup(2)"), o.out());
        assertTrue(o.out().contains("executor=ExecutorFilter(OrderedThreadPoolExecutor(2))"), o.out());
        assertEquals(4, o.out().lines().filter(l -> l.startsWith("  server: ") && l.contains(" MiB echoed, CPU "))
                        .count(),
                "one server line per measured iteration and server: " + o.out());
        String table = o.out().substring(o.out().indexOf("=== comparison"));
        assertTrue(table.contains("\n  client CPU "), table);
        assertTrue(table.contains("\n  server CPU "), table);
        assertTrue(table.contains("\n  client CPU/msg "), table);
        assertTrue(table.contains("\n  server CPU/msg "), table);
        for (String server : new String[] {"netty", "mina"}) {
            JsonNode stats = ResultDocument.MAPPER
                    .readTree(dir.resolve(server + ".json").toFile()).get("combinations").get(0).get("serverStats");
            assertTrue(stats.get("error").isNull(), stats.toString());
            assertEquals(2, stats.get("iterations").size(), stats.toString());
            assertTrue(stats.get("iterations").get(0).get("cpuPercent").isNumber(), stats.toString());
            assertTrue(stats.get("iterations").get(0).get("bytesOut").asLong() >= 150 * 2048, stats.toString());
        }
        assertEquals(0, ProcessHandle.current().children().filter(ProcessHandle::isAlive).count(),
                "every child server stopped");
        cpuPerMessageAndMeanLatencyAsTheDocumentsGiveThem(dir.resolve("netty.json"), dir.resolve("mina.json"));
        // --no-server-stats turning it off: checked on theProgressLinesEstimateIsWhatIsLeftOfTheWholeRun's run,
        // which gives it (one run of two server JVMs less).
    }

    /**
     * {@code compare --format json} on run's documents: the mean latency and the CPU per message of the client
     * and of the server (issue 30.6), each the mean over the measured iterations of what the document holds
     * (the latency histogram's mean; cpuPercent / 100 x wall time / messages, the server's over its own window
     * and requests, or the client's messages when an echo server counts none), worked out here from the fields.
     */
    private static void cpuPerMessageAndMeanLatencyAsTheDocumentsGiveThem(Path a, Path b) throws Exception {
        CliTest.Outcome o = CliTest.run("compare", "--format", "json", a.toString(), b.toString());
        assertEquals(0, o.code(), o.out() + o.err());
        JsonNode metrics = ResultDocument.MAPPER.readTree(o.out()).get("combinations").get(0)
                .get("metrics");
        Map<String, JsonNode> byName = new HashMap<>();
        metrics.forEach(m -> byName.put(m.get("metric").asText(), m));
        JsonNode[] docs = {ResultDocs.read(a), ResultDocs.read(b)};
        for (int f = 0; f < 2; f++) {
            JsonNode combination = docs[f].get("combinations").get(0);
            Map<Integer, JsonNode> server = new HashMap<>();
            combination.get("serverStats").get("iterations").forEach(s -> server.put(s.get("index").asInt(), s));
            double client = 0;
            double serverCpu = 0;
            double mean = 0;
            int n = 0;
            for (JsonNode it : combination.get("iterations")) {
                if (it.get("warmup").asBoolean()) {
                    continue;
                }
                n++;
                client += it.get("resources").get("cpuPercent").asDouble() / 100 * it.get("wallNs").asLong()
                        / it.get("messages").asLong();
                JsonNode s = server.get(it.get("index").asInt());
                long served = s.get("requests").asLong() > 0 ? s.get("requests").asLong() : it.get("messages").asLong();
                serverCpu += s.get("cpuPercent").asDouble() / 100 * s.get("nanos").asLong() / served;
                mean += HistogramCodec.decode(it.get("histogram").asText()).getMean();
            }
            String side = f == 0 ? "baseline" : "others";
            Function<String, Double> shown = name -> side.equals("baseline")
                    ? byName.get(name).get("baseline").get("mean").asDouble()
                    : byName.get(name).get("others").get(0).get("mean").asDouble();
            assertEquals(client / n, shown.apply("client CPU/msg"), 1e-6 * client / n, side);
            assertEquals(serverCpu / n, shown.apply("server CPU/msg"), 1e-6 * serverCpu / n, side);
            assertEquals(mean / n, shown.apply("mean"), 1e-6 * mean / n, side);
            assertEquals("ns", byName.get("client CPU/msg").get("unit").asText());
        }
    }

    /**
     * The comparison must not depend on the order of --servers: the client (in run's JVM) warms up against every
     * server before any is measured, and the measured iterations alternate between the servers in rounds, every
     * other round reversed (A B, B A, A B, B A). Read from what each server's document says it measured and
     * when (each measured interval's wall-clock time), not from the printed headers; no speed is asserted.
     */
    @Test
    void serversAreMeasuredInAlternatingRoundsAfterTheClientWarmedUpAgainstEach(@TempDir Path dir) throws Exception {
        CliTest.Outcome o = CliTest.run("run", "--servers", "netty,nio", "--threads", "1", "--msgs", "100",
                "--warmup", "1", "--iterations", "4", "--results-dir", dir.toString());
        assertEquals(0, o.code(), o.out() + o.err());
        assertEquals("", o.err());
        TreeMap<Long, String> measured = new TreeMap<>();
        long lastWarmup = Long.MIN_VALUE;
        for (String server : new String[] {"netty", "nio"}) {
            // The joined document is a valid result document (ResultDocs checks it against the schema).
            JsonNode c = ResultDocs.read(
                    Files.readString(dir.resolve(server + ".json"))).get("combinations").get(0);
            long start = Instant.parse(c.get("startTime").asText()).toEpochMilli() * 1_000_000L;
            Set<Integer> indices = new TreeSet<>();
            for (JsonNode i : c.get("intervals")) {
                long at = start + i.get("startNs").asLong();
                if (i.get("warmup").asBoolean()) {
                    lastWarmup = Math.max(lastWarmup, at);
                } else if (indices.add(i.get("iteration").asInt())) {
                    measured.put(at, server); // the measured iteration's first interval
                }
            }
            assertEquals(Set.of(1, 2, 3, 4), indices, "every round's iteration, numbered on: " + c);
            assertEquals(4, c.get("summary").get("iterations").asInt(), "the summary is over every round");
            assertEquals(1, c.get("iterations").findValues("warmup").stream().filter(w -> w.asBoolean()).count(),
                    "the warmup against this server is in its document, as warmup");
            assertEquals(List.of(1, 2, 3, 4), c.get("serverStats").get("iterations").findValues("index").stream()
                    .map(JsonNode::asInt).toList(), "the server's figures, each round's");
        }
        assertEquals(List.of("netty", "nio", "nio", "netty", "netty", "nio", "nio", "netty"),
                List.copyOf(measured.values()), "measured in rounds, every other one reversed");
        assertTrue(lastWarmup < measured.firstKey(), "the client warmed up against every server before measuring any");
        assertTrue(o.out().contains("\nWarmup 1/1 (not measured): netty "), o.out()); // each round one line
        assertTrue(o.out().indexOf(", nio ") > o.out().indexOf("\nWarmup 1/1 (not measured): netty ")
                && o.out().indexOf(", nio ") < o.out().indexOf("\nRound 1/4, server netty: "), o.out());
        assertEquals(0, ProcessHandle.current().children().filter(ProcessHandle::isAlive).count(),
                "every child server stopped");
    }

    /**
     * {@code run --protocol http}: run starts HTTP servers and points its HTTP client at each (run chooses the URL
     * as it chooses the port), and each server answers with a body of {@code --size} bytes, as framed's
     * responses are {@code --size} bytes: the server's bytes out per request (its monitor's figures in the
     * result document) are a 200's head and that body, the head written out here. {@code --response-size} sets
     * the body instead, as it sets framed's responses.
     */
    @Test
    void httpServersAnswerWithBodiesOfTheClientsSize(@TempDir Path dir) throws Exception {
        CliTest.Outcome o = CliTest.run("run", "--servers", "netty,nio", "--protocol", "http", "--size", "300",
                "--threads", "2", "--msgs", "100", "--warmup", "0", "--iterations", "1", "--results-dir",
                dir.toString());
        assertEquals(0, o.code(), o.out() + o.err());
        assertEquals("", o.err());
        assertBodies(dir, List.of("netty", "nio"), 300, 200);
        assertTrue(o.out().contains("protocol http (responses of 300 bytes)"), o.out());

        Path post = dir.resolve("post");
        CliTest.Outcome p = CliTest.run("run", "--servers", "blocking", "--protocol", "http", "--method", "POST",
                "--size", "2k", "--response-size", "50", "--threads", "1", "--msgs", "50", "--warmup", "0",
                "--iterations", "1", "--results-dir", post.toString());
        assertEquals(0, p.code(), p.out() + p.err());
        assertBodies(post, List.of("blocking"), 50, 50);
        JsonNode stats = ResultDocument.MAPPER.readTree(post.resolve("blocking.json").toFile())
                .get("combinations").get(0).get("serverStats").get("iterations").get(0);
        assertTrue(stats.get("bytesIn").asLong() > 50L * 2048, "each request carries its 2 KiB body: " + stats);
    }

    /** Each server's document: {@code messages} requests, 0 errors, and the server's bytes out per request. */
    private static void assertBodies(Path dir, List<String> servers, int body, long messages) throws Exception {
        long perResponse = ("HTTP/1.1 200 OK\r\nContent-Length: " + body + "\r\n\r\n").length() + body;
        for (String server : servers) {
            JsonNode doc = ResultDocument.MAPPER.readTree(dir.resolve(server + ".json").toFile());
            JsonNode combination = doc.get("combinations").get(0);
            JsonNode stats = combination.get("serverStats").get("iterations").get(0);
            assertEquals(messages, stats.get("requests").asLong(), server + ": " + stats);
            assertEquals(messages * perResponse, stats.get("bytesOut").asLong(), server + ": " + stats);
        }
    }

    @Test
    void inProcessRunsTheInJvmTransportsAgainstThemselves() {
        // Time-based: a synchronous in-JVM pipe (mina-vmpipe) must still hand control back at the boundaries.
        CliTest.Outcome o = CliTest.run("run", "--in-process", "--threads", "2", "--iteration-time", "200ms",
                "--warmup", "0", "--iterations", "2", "--verbose"); // each server's client header
        assertEquals(0, o.code(), o.out() + o.err());
        assertTrue(o.out().contains("=== server netty-local (in this JVM) ==="), o.out());
        assertTrue(o.out().contains("=== server mina-vmpipe (in this JVM) ==="), o.out());
        assertTrue(o.out().contains("client: mina-vmpipe"), o.out());
        assertTrue(o.out().contains("=== comparison"), o.out());
        assertTrue(o.out().contains("driver threads"), "mina-vmpipe runs on sender threads: " + o.out());
        assertEquals("", o.err());
    }

    @ParameterizedTest
    @ValueSource(strings = {"run --port 7007", "run --servers nosuch", "run --servers netty-local",
        "run --in-process --servers netty", "run --size 5x", "run --out x.json", "run --monitor-port 7070",
        "run --rounds 0", "run --iterations 2 --rounds 3", "run --forks 2 --rounds 2",
        "run --url http://127.0.0.1:7007/", "run --protocol http --size 1k,2k", "run -n 1000", "run -d 1s"})
    void badRunArgumentsAreUsageErrors(String line) {
        CliTest.Outcome o = CliTest.run(line.split(" "));
        assertEquals(ExitCode.USAGE, o.code(), o.out() + o.err());
        assertEquals(1, o.err().strip().lines().count(), o.err());
    }

    /**
     * A client option that only the client's plan refuses is found once the servers run: run's client, called
     * in this JVM without parsing, reports it as the client command would, one line and exit 2.
     */
    @Test
    void aUsageErrorOfRunsClientIsTheClientsOneLineAndExit2() {
        CliTest.Outcome o = CliTest.run("run", "--servers", "nio", "--batch", "2", "--driver", "io", "--warmup", "0",
                "--iterations", "1");
        assertEquals(ExitCode.USAGE, o.code(), o.out() + o.err());
        assertEquals("nbench: --batch needs sender threads that wait or reconnect: use --driver threads (or leave "
                + "--driver out) (see 'nbench client --help')\n", o.err());
    }
}
