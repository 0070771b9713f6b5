package io.nbench.cli;

import io.nbench.testkit.Stderr;
import io.nbench.client.ExitCode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.protocol.Protocol;
import io.nbench.testkit.TestServers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one rule for @-files, for every command: an option given on the command line replaces that
 * option's values from the @-file (before or after it); repeated on the command line itself, a list
 * option accumulates and a single-value option is a usage error. Checked through the real entry point
 * with each scenario file in config/, reading the resolved values back from the result document.
 */
class ArgumentFilesTest {

    @TempDir
    Path dir;

    private static String file(String name) {
        return "@" + Path.of("config", name).toAbsolutePath();
    }

    private static JsonNode clientJson(Protocol protocol, String... args) throws IOException {
        List<String> all = new ArrayList<>(List.of("client"));
        all.addAll(List.of(args));
        all.addAll(List.of("--port", Integer.toString(TestServers.get("netty", protocol).address().getPort()),
                "--format", "json"));
        CliTest.Outcome o = CliTest.run(all.toArray(new String[0]));
        // These tests read the options a document records. A 50 ms iteration on a loaded machine may complete no
        // message (NO_DATA, exit 5, its reason on stderr), which is not what they test.
        boolean nothingMeasured = o.code() == ExitCode.NOTHING_MEASURED
                && o.err().lines().allMatch(l -> l.startsWith("nbench client: NO_DATA [") || Stderr.warning(l));
        assertTrue(o.code() == ExitCode.OK && Stderr.withoutWarnings(o.err()).isEmpty() || nothingMeasured,
                () -> all + "\n" + o.err() + o.out());
        return OutputFormatsTest.json(o.out());
    }

    private static JsonNode options(JsonNode doc) {
        return doc.get("configuration").get("options");
    }

    private static List<String> names(JsonNode doc) {
        List<String> names = new ArrayList<>();
        doc.get("combinations").forEach(c -> names.add(c.get("name").asText()));
        return names;
    }

    @Test
    void minaClientStatsLockOverridesReplaceTheFilesValuesAndKeepTheRest() throws IOException {
        JsonNode doc = clientJson(Protocol.FRAMED, file("mina-client-stats-lock.args"),
                "--threads", "2", "--msgs", "20", "--warmup", "0", "--iterations", "1", "-O", "mina.stats=off");
        JsonNode o = options(doc);
        assertEquals("[2]", o.get("threads").toString());
        assertEquals(20, o.get("msgs").asLong());
        assertEquals(0, o.get("warmup").asInt());
        assertEquals(1, o.get("iterations").asInt());
        assertEquals("{\"mina.stats\":\"off\"}", o.get("O").toString(), "the command line's -O key replaces the file's");
        // from the file, untouched
        assertEquals("mina", o.get("impl").asText());
        assertEquals("[10]", o.get("window").toString());
        assertEquals("send", o.get("measure").asText());
        assertEquals("threads", o.get("driver").asText());
        assertEquals(0, o.get("response-size").asInt());
        assertEquals(List.of("impl=mina,size=1024,threads=2,window=10"), names(doc));
    }

    @Test
    void blockingHandlerVsExecutorOverridesConnectionsAndCountsKeepChurn() throws IOException {
        JsonNode doc = clientJson(Protocol.FRAMED, file("blocking-handler-vs-executor.args"),
                "--connections", "4", "--msgs", "5", "--warmup", "0", "--iterations", "1", "--connect-rate", "1k");
        JsonNode o = options(doc);
        assertEquals(4, o.get("connections").asInt());
        assertEquals(5, o.get("msgs").asLong());
        assertEquals(1000.0, o.get("connect-rate").asDouble());
        assertEquals("[4]", o.get("threads").toString());
        assertEquals(1, o.get("requests-per-connection").asInt());
        assertEquals("[100]", o.get("size").toString());
        assertEquals(1, names(doc).size());
    }

    /**
     * The HTTP variant, pointed at another port by --url after the file (the file's URL names 7007): a connection
     * per request, every request answered 200.
     */
    @Test
    void blockingHandlerVsExecutorOverHttpTakesTheUrlFromTheCommandLine() throws IOException {
        String url = "http://127.0.0.1:" + TestServers.get("netty", Protocol.HTTP).address().getPort()
                + "/stress-benchmark-01";
        CliTest.Outcome out = CliTest.run("client", file("blocking-handler-vs-executor-http.args"), "--url", url,
                "--connections", "4", "--msgs", "5", "--warmup", "0", "--iterations", "1", "--format", "json");
        assertEquals(ExitCode.OK, out.code(), out::err);
        JsonNode doc = OutputFormatsTest.json(out.out());
        JsonNode o = options(doc);
        assertEquals(url, o.get("url").asText());
        assertEquals(4, o.get("connections").asInt());
        assertEquals("[4]", o.get("threads").toString());
        assertEquals(1, o.get("requests-per-connection").asInt());
        assertEquals(2000.0, o.get("connect-rate").asDouble());
        assertEquals("{\"200\":20}", doc.path("combinations").path(0).path("errors").path("statuses").toString());
    }

    @Test
    void threadsOverOneConnectionThreadsOverrideRunsOnlyThatValue() throws IOException {
        JsonNode doc = clientJson(Protocol.FRAMED, file("threads-over-one-connection.args"),
                "--threads", "2", "--iteration-time", "50ms", "--warmup", "0", "--iterations", "1");
        JsonNode o = options(doc);
        assertEquals("[2]", o.get("threads").toString(), "was [1,2,4,8,2]: the list appended");
        assertEquals(1, o.get("connections").asInt());
        assertEquals(1, o.get("batch").asInt());
        assertEquals("[8]", o.get("window").toString());
        assertEquals("[64]", o.get("size").toString());
        assertEquals(List.of("impl=netty,size=64,threads=2,window=8"), names(doc));
    }

    @Test
    void syncVsBatchedCallsBatchOverrideAsTheFileSays() throws IOException {
        JsonNode doc = clientJson(Protocol.FRAMED, file("sync-vs-batched-calls.args"), "--batch", "1",
                "--threads", "4", "--iteration-time", "50ms", "--warmup", "0", "--iterations", "1", "--no-server-stats");
        JsonNode o = options(doc);
        assertEquals(1, o.get("batch").asInt());
        assertEquals("[4]", o.get("threads").toString());
        assertEquals(4, o.get("connections").asInt());
        assertEquals(17, o.get("response-size").asInt());
        assertEquals("[101]", o.get("size").toString());
        assertEquals(7070, o.get("monitor-port").asInt(), "the file names the server's monitor");
        assertEquals(false, o.get("server-stats").asBoolean(), "turned off on the command line");
    }

    @Test
    void anOptionBeforeTheFileAlsoWins() throws IOException {
        JsonNode doc = clientJson(Protocol.FRAMED, "--threads", "2", file("threads-over-one-connection.args"),
                "--iteration-time", "50ms", "--warmup", "0", "--iterations", "1");
        assertEquals("[2]", options(doc).get("threads").toString());
    }

    @Test
    void aLaterFileReplacesAnEarlierOnesOptions() throws IOException {
        Path small = Files.writeString(dir.resolve("small.args"), "# quick look\n--iteration-time 50ms\n--warmup 0\n"
                + "--iterations 1\n--threads 1,2\n");
        JsonNode doc = clientJson(Protocol.FRAMED, file("threads-over-one-connection.args"), "@" + small);
        JsonNode o = options(doc);
        assertEquals("[1,2]", o.get("threads").toString());
        assertEquals(1, o.get("iterations").asInt());
        assertEquals(List.of("impl=netty,size=64,threads=1,window=8", "impl=netty,size=64,threads=2,window=8"),
                names(doc));
    }

    @Test
    void repeatedListOptionsAccumulateIncludingImplAndTransportOptionKeys() throws IOException {
        JsonNode doc = clientJson(Protocol.FRAMED, "--impl", "netty", "--impl", "nio", "--size", "100", "--size", "200",
                "-O", "netty.allocator=pooled", "-O", "netty.allocator=unpooled", "--threads", "1", "--msgs", "10",
                "--warmup", "0", "--iterations", "1");
        assertEquals(List.of(
                "impl=netty,size=100,threads=1,window=1,netty.allocator=pooled",
                "impl=netty,size=100,threads=1,window=1,netty.allocator=unpooled",
                "impl=netty,size=200,threads=1,window=1,netty.allocator=pooled",
                "impl=netty,size=200,threads=1,window=1,netty.allocator=unpooled",
                "impl=nio,size=100,threads=1,window=1",
                "impl=nio,size=200,threads=1,window=1"), names(doc));
    }

    @Test
    void repeatedSingleValueOptionIsAUsageErrorForEveryCommand() {
        for (String[] line : new String[][] {
            {"client", "--msgs", "10", "--msgs", "20"},
            {"server", "--port", "0", "--port", "1"},
            {"run", "--servers", "netty", "--msgs", "10", "--msgs", "20"},
            {"run", "--results-dir", "a", "--results-dir", "b"},
            {"client", "--tcp-nodelay", "--no-tcp-nodelay"},
        }) {
            CliTest.Outcome o = CliTest.run(line);
            assertEquals(ExitCode.USAGE, o.code(), () -> String.join(" ", line) + " -> " + o.err() + o.out());
            assertEquals(1, o.err().strip().lines().count(), o.err());
            assertTrue(o.err().contains("should be specified only once"), o.err());
            assertEquals("", o.out());
        }
    }

    @Test
    void runTakesTheScenarioFileWithOverrides() throws IOException {
        Path results = dir.resolve("results");
        CliTest.Outcome o = CliTest.run("run", "--servers", "mina,netty", file("mina-vs-netty-echo-by-size.args"),
                "--size", "1k", "--threads", "1", "--iteration-time", "50ms", "--warmup", "0", "--iterations", "1",
                "--results-dir", results.toString());
        // A 50 ms iteration of a fresh child server may measure nothing on a loaded machine (exit 5): not the subject.
        assertTrue(o.code() == ExitCode.OK || o.code() == ExitCode.NOTHING_MEASURED, o.err() + o.out());
        assertEquals("", o.err());
        assertTrue(o.out().contains("read-buffer=2048"), "the file's mina key reaches the mina server: " + o.out());
        assertTrue(o.out().contains("executor=ExecutorFilter(OrderedThreadPoolExecutor(2))"), o.out());
        assertTrue(o.out().contains("executor=DefaultEventExecutorGroup(2)"), o.out());
        assertTrue(o.out().contains("\n  server CPU "), "the servers' CPU in the comparison (a row of each server's block): " + o.out());
        for (String server : List.of("mina", "netty")) {
            JsonNode doc = OutputFormatsTest.json(Files.readString(results.resolve(server + ".json")));
            JsonNode options = options(doc);
            assertEquals("[1024]", options.get("size").toString());
            assertEquals("50 ms", options.get("iteration-time").asText());
            assertEquals("echo", options.get("protocol").asText());
            assertEquals("{\"netty.executor\":\"2\"}", options.get("O").toString(),
                    "the netty client gets no mina key");
            assertTrue(doc.get("combinations").get(0).get("serverStats").get("iterations").get(0).get("cpuPercent")
                    .isNumber(), doc.toString());
        }
    }

    @Test
    void serverTakesAnOverrideAfterAFile() throws IOException {
        Path f = Files.writeString(dir.resolve("server.args"), "--impl nio --port 7007 --duration 100ms\n");
        CliTest.Outcome o = CliTest.run("server", "@" + f, "--port", "0");
        assertEquals(ExitCode.OK, o.code(), o.err());
        assertTrue(o.out().startsWith("nbench server: nio listening on 127.0.0.1:"), o.out());
        assertTrue(!o.out().contains(":7007,"), o.out());
    }

    @Test
    void anUnreadableFileIsAOneLineUsageError() {
        CliTest.Outcome o = CliTest.run("client", "@" + dir.resolve("nosuch.args"));
        assertEquals(ExitCode.USAGE, o.code());
        assertEquals("nbench: cannot read @-file " + dir.resolve("nosuch.args") + ": no such file (an argument "
                + "that starts with @ but is not a file is written @@) (see 'nbench --help')", o.err().strip());
    }

    /**
     * picocli's own @-file syntax, which nbench's rule reads as picocli does: comments, quoted values,
     * a nested @-file (its options of the file's source: the command line still replaces them) and {@code @@}
     * for an argument that starts with {@code @}.
     */
    @Test
    void picocliReadsTheFilesCommentsQuotesNestedFilesAndTheAtEscape() throws IOException {
        Path inner = Files.writeString(dir.resolve("inner.args"), "--warmup 0\n--msgs 30\n");
        Path outer = Files.writeString(dir.resolve("outer.args"), "# a comment, not an argument\n"
                + "--threads 1 --iterations 1\n--threshold 'errors == 0'\n@" + inner + "\n");
        JsonNode doc = clientJson(Protocol.FRAMED, "@" + outer, "--msgs", "20", "--host-label", "@@edge");
        JsonNode o = options(doc);
        assertEquals("[\"errors == 0\"]", o.get("threshold").toString(), "a quoted value is one argument");
        assertEquals(0, o.get("warmup").asInt(), "from the nested file");
        assertEquals(20, o.get("msgs").asLong(), "the command line replaces the nested file's value");
        assertEquals("@edge", o.get("host-label").asText(), "@@ is an argument starting with @");
    }
}
