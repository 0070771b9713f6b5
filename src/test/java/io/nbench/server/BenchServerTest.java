package io.nbench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.load.RunResult;
import io.nbench.server.runtime.WorkMode;
import io.nbench.testkit.Runs;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The server as a library: a {@link BenchServer} started from Java with a {@link ServerPlan} (port 0), the
 * real client engine run against its {@link BenchServer#address()}, and the figures it reports (its metrics
 * while it runs, the report {@code close} prints) equal to what the client sent.
 */
class BenchServerTest {

    private static final Pattern RECEIVED = Pattern.compile(
            "requests received (\\d[\\d,]*): answered (\\d[\\d,]*), rejected (\\d+), dropped at shutdown (\\d+)");

    @Test
    void servesTheClientAndReportsWhatItSent() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        ServerPlan plan = ServerPlan.builder().transport("nio", Map.of()).port(0)
                .business(new ServerPlan.Business(null, WorkMode.SLEEP, 2, 2, 64)).build();
        Runs.Workload workload = Runs.workload().threads(2).connections(2).msgs(150).warmup(0).iterations(2);
        long requests;
        try (BenchServer server = BenchServer.start(plan, new PrintWriter(out), new PrintWriter(err))) {
            assertNotEquals(0, server.address().getPort(), "port 0: the port chosen");
            RunResult result = workload.run("nio", server.address());
            assertEquals(workload.expectedMessages(), result.summary().messages(), "every message answered");
            assertEquals(0, result.errors().total());
            requests = server.metrics().requests();
            assertEquals(workload.expectedMessages(), requests, "the server's count of what the client sent");
            assertFalse(server.awaitStop(Duration.ofMillis(1)), "running until closed");
        }
        Matcher m = RECEIVED.matcher(out.toString());
        assertTrue(m.find(), out.toString());
        assertEquals(requests, Long.parseLong(m.group(1).replace(",", "")), out.toString());
        assertEquals(requests, Long.parseLong(m.group(2).replace(",", "")), out.toString());
        assertEquals("0", m.group(3));
        assertEquals("0", m.group(4));
        assertEquals("", err.toString());
    }

    @Test
    void announcesWhereItListensAndClosesOnce() throws Exception {
        StringWriter out = new StringWriter();
        BenchServer server = BenchServer.start(ServerPlan.builder().transport("nio", Map.of()).readyLine(true)
                .duration(Duration.ofSeconds(30)).build(), new PrintWriter(out), new PrintWriter(new StringWriter()));
        server.announce();
        String[] lines = out.toString().split("\n");
        assertEquals(ReadyLine.format(server.address(), null), lines[0]);
        assertEquals("nbench server: nio listening on 127.0.0.1:" + server.address().getPort() + ", protocol framed, "
                + "max frame " + ServerPlan.DEFAULT_MAX_FRAME + " bytes", lines[1].replaceAll(", max connections .*", ""));
        assertTrue(lines[2].startsWith("  transport: "), lines[2]);
        server.close();
        server.close();
        assertTrue(server.awaitStop(Duration.ZERO), "closed");
        assertEquals(1, out.toString().split("requests received", -1).length - 1, "one report: " + out);
    }

    @Test
    void aFatalErrorInALibraryServerIsLoggedNotTheEndOfTheProgram() throws Exception {
        // In this JVM a test may have run the server command, which makes a fatal error end the process.
        Assumptions.assumeFalse(FatalErrors.installed(), "the server command ran in this JVM");
        StringWriter err = new StringWriter();
        try (BenchServer server = BenchServer.start(ServerPlan.builder().transport("nio", Map.of()).build(),
                new PrintWriter(new StringWriter()), new PrintWriter(err))) {
            server.metrics().fatal(new OutOfMemoryError("for the test"));
            assertTrue(err.toString().contains("failed (java.lang.OutOfMemoryError: for the test): the server cannot "
                    + "go on"), err.toString());
            assertEquals(100, Runs.workload().threads(1).connections(1).msgs(100).warmup(0).iterations(1)
                    .run("nio", server.address()).summary().messages(), "still serving");
        }
    }
}
