package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.client.ExitCode;
import io.nbench.protocol.Protocol;
import io.nbench.testkit.ResultDocs;
import io.nbench.testkit.ScriptedServer;
import io.nbench.testkit.TestServers;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The command line as a user runs it: output, stderr and exit codes. */
class CliTest {

    record Outcome(int code, String out, String err) {
    }

    static Outcome run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Outcome(code, out.toString(), err.toString());
    }

    static String port(Protocol protocol) {
        return Integer.toString(TestServers.get("netty", protocol).address().getPort());
    }

    @Test
    void versionIsFastAndNamesTheJvm() {
        Outcome o = run("--version");
        assertEquals(0, o.code());
        assertTrue(o.out().startsWith("nbench "), o.out());
        assertTrue(o.out().contains("JVM:"));
        assertEquals("", o.err());
    }

    @Test
    void helpShowsExamples() {
        Outcome o = run("client", "--help");
        assertEquals(0, o.code());
        assertTrue(o.out().contains("Examples:"));
        assertTrue(o.out().contains("--iteration-time"));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "client --size 5x",
        "client --timeout 10parsecs",
        "client --threads 0",
        "client --window 0",
        "client --msgs 10 --iteration-time 1s",
        "client --impl nosuch",
        "client -O nosuch.key=1",
        "client -O netty.io=carrier-pigeon",
        "client --measure sideways",
        "client --protocol smoke",
        "client --percentiles 0,50",
        "client --max-errors lots",
        "client --response-size 0",
        "client --measure send --driver io",
        "client --protocol echo --size 0",
        "server --port 70000",
        "server --max-frame 1q",
        "client --no-such-option",
        "run --in-process --impl netty-local",
        "",
    })
    void badInputIsOneLineUsageErrorWithExit2(String line) {
        Outcome o = run(line.isEmpty() ? new String[0] : line.split(" "));
        assertEquals(ExitCode.USAGE, o.code(), () -> line + " -> " + o.err());
        assertEquals(1, o.err().strip().lines().count(), () -> "one line: " + o.err());
        assertTrue(o.err().startsWith("nbench: "), o.err());
        assertEquals("", o.out());
    }

    /** Found by ConvertersFuzzTest: the message quoted the value, line breaks and all. */
    @ParameterizedTest
    @ValueSource(strings = {"--size|5\nk", "--rate|1\n0", "--timeout|1\nparsec", "--threshold|p99<\n2parsecs"})
    void valuesWithLineBreaksAreOneLineUsageErrors(String option) {
        String[] o = option.split("\\|");
        Outcome r = run("client", o[0], o[1]);
        assertEquals(ExitCode.USAGE, r.code(), () -> option + " -> " + r.err());
        assertEquals(1, r.err().strip().lines().count(), () -> "one line: " + r.err());
        assertTrue(r.err().startsWith("nbench: "), r.err());
    }

    @Test
    void connectionRefusedIsExit1WithTheFix() throws Exception {
        int free;
        try (ServerSocket s = new ServerSocket(0)) {
            free = s.getLocalPort();
        }
        Outcome o = run("client", "--port", Integer.toString(free), "--msgs", "10", "--connect-timeout", "500ms");
        assertEquals(ExitCode.COULD_NOT_RUN, o.code(), o.err());
        assertTrue(o.err().contains("Connection refused"), o.err());
        assertTrue(o.err().contains("nbench server"), "names the fix: " + o.err());
        assertEquals(1, o.err().strip().lines().count(), o.err());
    }

    @Test
    void unknownHostIsExit1() {
        Outcome o = run("client", "--host", "no-such-host.invalid", "--msgs", "10");
        assertEquals(ExitCode.COULD_NOT_RUN, o.code());
        assertTrue(o.err().contains("unknown host"), o.err());
    }

    @Test
    void clientRunPrintsIterationsAndSummaryWithEmptyStderr() {
        Outcome o = run("client", "--port", port(Protocol.FRAMED), "--threads", "3", "--msgs", "300", "--warmup", "1",
                "--iterations", "3", "--size", "5k");
        assertEquals(0, o.code(), o.err());
        assertEquals("", o.err());
        assertTrue(o.out().contains("Warmup 1/1:"), o.out());
        assertEquals(3, o.out().lines().filter(l -> l.startsWith("Iteration ")).count(), o.out());
        assertTrue(o.out().contains("SUMMARY RESULTS"));
        assertTrue(o.out().contains("All 3 iterations merged (2,700 msgs)"), o.out());
        assertTrue(o.out().contains("Mean Result for 3 iterations (99.9% CI)"));
        assertTrue(o.out().contains("Throughput: "));
        assertTrue(o.out().contains("Result: PASS"));
    }

    @Test
    void measureSendOneWayAndTimeBasedIterations() {
        Outcome o = run("client", "--port", port(Protocol.FRAMED), "--measure", "send", "--threads", "2", "--window", "10",
                "--iteration-time", "200ms", "--warmup", "1", "--iterations", "2", "--driver", "threads");
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().contains("response none (one-way)"), o.out());
        assertTrue(o.out().contains("measure send"), o.out());
    }

    @Test
    void moreConnectionsThanThreadsAndFewer() {
        for (String[] shape : new String[][] {{"2", "6"}, {"6", "2"}}) {
            Outcome o = run("client", "--port", port(Protocol.FRAMED), "--threads", shape[0], "--connections", shape[1],
                    "--msgs", "100", "--warmup", "0", "--iterations", "2", "--driver", "threads");
            assertEquals(0, o.code(), o.err());
            int messages = Integer.parseInt(shape[0]) * 100 * 2;
            assertTrue(o.out().contains("(" + String.format("%,d", messages) + " msgs)"), o.out());
        }
    }

    @Test
    void forksRepeatTheClientInFreshJvmsAndSummarizeOverAllOfThem(@org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        Path out = dir.resolve("r.json");
        Outcome o = run("client", "--port", port(Protocol.FRAMED), "--forks", "2", "--threads", "2", "--msgs", "100",
                "--warmup", "0", "--iterations", "2", "--out", out.toString());
        assertEquals(0, o.code(), o.out() + o.err());
        assertTrue(o.out().contains("FORKS SUMMARY: 2 of 2 forks completed"), o.out());
        assertTrue(o.out().contains("All 4 iterations of all forks merged (800 msgs)"), o.out());
        assertTrue(o.out().contains("(99.9% CI, N=4)"), o.out());
        assertTrue(Files.isRegularFile(dir.resolve("r.fork1.json")));
        assertTrue(Files.isRegularFile(dir.resolve("r.fork2.json")));
        // --out holds every fork: their measured iterations one after another, the summary over all four, and
        // compare can read it (the README's "one summary over all").
        JsonNode all = ResultDocs.read(out);
        JsonNode fork1 = ResultDocs.read(dir.resolve("r.fork1.json"));
        JsonNode fork2 = ResultDocs.read(dir.resolve("r.fork2.json"));
        JsonNode its = all.get("combinations").get(0).get("iterations");
        assertEquals(4, its.size(), all.toString());
        for (int i = 0; i < 4; i++) {
            JsonNode from = (i < 2 ? fork1 : fork2).get("combinations").get(0).get("iterations").get(i % 2);
            assertEquals(i + 1, its.get(i).get("index").asInt());
            assertEquals(from.get("histogram").asText(), its.get(i).get("histogram").asText(), "iteration " + (i + 1));
            assertEquals(from.get("msgPerSec").asDouble(), its.get(i).get("msgPerSec").asDouble());
        }
        assertEquals(2, all.get("configuration").get("options").get("forks").asInt());
        assertEquals(out.toString(), all.get("configuration").get("options").get("out").asText());
        JsonNode summary = all.get("combinations").get(0).get("summary");
        assertEquals(800, summary.get("messages").asLong());
        assertEquals(4, summary.get("throughput").get("n").asInt());
        double mean = 0;
        for (JsonNode it : its) {
            mean += it.get("msgPerSec").asDouble() / 4;
        }
        assertEquals(mean, summary.get("throughput").get("mean").asDouble(), mean * 1e-9);
        assertEquals(ExitCode.OK, run("compare", out.toString(), dir.resolve("r.fork1.json").toString()).code());
        assertTrue(o.out().contains("Result documents: " + out + " (every fork), "), o.out());
        assertEquals(0, ProcessHandle.current().children().filter(ProcessHandle::isAlive).count());
        assertEquals(ExitCode.USAGE, run("client", "--forks", "2", "--format", "json").code());
    }

    @Test
    void errorsOverMaxErrorsFailWithExit4() throws Exception {
        // A rejection is an answer: the run goes on to its end, then FAILs.
        try (ScriptedServer rejecting = new ScriptedServer(i -> i == 0 ? ScriptedServer.Action.REJECT
                : ScriptedServer.Action.ANSWER)) {
            Outcome o = run("client", "--port", Integer.toString(rejecting.address().getPort()), "--threads", "1",
                    "--msgs", "2", "--warmup", "0", "--iterations", "1");
            assertEquals(ExitCode.FAILED, o.code(), o.out() + o.err());
            assertTrue(o.out().contains("rejected=1"), o.out());
            assertTrue(o.out().contains("Result: FAIL"), o.out());
            Outcome tolerated = run("client", "--port", Integer.toString(rejecting.address().getPort()), "--threads", "1",
                    "--msgs", "2", "--warmup", "0", "--iterations", "1", "--max-errors", "2");
            assertEquals(ExitCode.OK, tolerated.code(), tolerated.out());
        }
    }

    @Test
    void timeoutsPastMaxErrorsStopTheRunAtOnce() throws Exception {
        // Every 1000th request is never answered; the rest are, so the server is not silent. The fourth
        // timeout passes --max-errors 3: the verdict cannot change, so the run stops there (exit 1) instead
        // of running its 2 x 5 s.
        try (ScriptedServer server = new ScriptedServer(i -> i % 1000 == 999 ? ScriptedServer.Action.SILENT
                : ScriptedServer.Action.ANSWER)) {
            Outcome o = run("client", "--port", Integer.toString(server.address().getPort()), "--threads", "4",
                    "--iteration-time", "5s", "--warmup", "0", "--iterations", "2", "--timeout", "300ms",
                    "--max-errors", "3");
            assertEquals(ExitCode.COULD_NOT_RUN, o.code(), o.out() + o.err());
            assertEquals("nbench client: run aborted: 4 errors (timeout=4) > --max-errors 3: the server is not "
                    + "answering; raise --max-errors to tolerate errors", o.err().strip());
            assertTrue(o.out().contains("Iteration 1/2") && o.out().contains("Result: ABORTED"), o.out());
        }
    }

    @Test
    void serverRunsForDurationOnAFreePortAndPrintsMetrics() {
        Outcome o = run("server", "--port", "0", "--duration", "300ms");
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().startsWith("nbench server: netty listening on 127.0.0.1:"), o.out());
        assertTrue(o.out().contains("server metrics after"), o.out());
        assertEquals("", o.err());
    }

    @Test
    void serverPortInUseIsExit1() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Outcome o = run("server", "--port", Integer.toString(taken.getLocalPort()), "--duration", "100ms");
            assertEquals(ExitCode.COULD_NOT_RUN, o.code(), o.out());
            assertTrue(o.err().contains("choose another --port"), o.err());
        }
    }

    @Test
    void listShowsEveryTransportAndItsOptions() {
        Outcome o = run("list");
        assertEquals(0, o.code());
        assertTrue(o.out().contains("netty  [available]"), o.out());
        assertTrue(o.out().contains("-O netty.io=auto|nio|epoll|io_uring"), o.out());
        assertTrue(o.out().contains("--measure send:"), o.out());
    }
}
