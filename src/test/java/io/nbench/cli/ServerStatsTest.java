package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.testkit.NbenchProcess;
import io.nbench.testkit.ResultDocs;
import io.nbench.testkit.ServerProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code nbench client --server-stats} end to end: a real server process with its monitor, the real client
 * (a child JVM, so the token comes from its environment as a user gives it), the result document validated.
 */
class ServerStatsTest {

    private static final String TOKEN = "server-stats-token";
    private static ServerProcess server;

    @BeforeAll
    static void startServer() throws Exception {
        server = ServerProcess.withMonitor(TOKEN);
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close();
    }

    @Test
    void eachMeasuredIterationHasTheServersFiguresInTextAndInTheValidDocument(@TempDir Path dir) throws Exception {
        Path token = dir.resolve("token");
        Files.writeString(token, TOKEN + "\n");
        Path json = dir.resolve("r.json");
        NbenchProcess.Result r = NbenchProcess.run(dir, "022", "client", "--impl", "nio", "--port",
                Integer.toString(server.port), "--server-stats", "--monitor-port", Integer.toString(server.monitorPort),
                "--monitor-token-file", token.toString(), "--threads", "2", "--msgs", "300", "--warmup", "1",
                "--iterations", "2", "--out", json.toString());
        assertEquals(0, r.exit(), r.all());
        assertEquals("", r.err());
        List<String> lines = r.out().lines().toList();
        for (int i = 1; i <= 2; i++) {
            int at = indexOfPrefix(lines, "Iteration " + i + "/2:");
            assertTrue(lines.get(at + 1).startsWith("  server: 600 requests, processing "), r.out());
        }
        assertEquals(2, lines.stream().filter(l -> l.startsWith("  server: ")).count(), "not under the warmup");
        JsonNode doc = ResultDocs.valid(ResultDocs.read(json));
        JsonNode stats = doc.at("/combinations/0/serverStats");
        assertEquals("127.0.0.1:" + server.monitorPort, stats.get("monitor").asText());
        assertTrue(stats.get("error").isNull());
        assertEquals(2, stats.get("iterations").size());
        for (int i = 0; i < 2; i++) {
            JsonNode it = stats.get("iterations").get(i);
            assertEquals(i + 1, it.get("index").asInt());
            // Count-based iterations end when every response is in: the server served exactly what the client sent.
            assertEquals(doc.at("/combinations/0/iterations/" + (i + 1) + "/messages").asLong(), it.get("requests").asLong());
            assertEquals(0, it.get("rejected").asLong());
            assertTrue(it.get("cpuPercent").asDouble() > 0, it.toString());
            assertTrue(it.get("nanos").asLong() > 0);
        }
    }

    @Test
    void aMonitorThatRefusesTheTokenOrCannotBeReachedIsOneLineAndExit1BeforeTheRun(@TempDir Path dir) throws Exception {
        Path token = dir.resolve("token");
        Files.writeString(token, "wrong\n");
        NbenchProcess.Result refused = NbenchProcess.run(dir, "022", "client", "--impl", "nio", "--port",
                Integer.toString(server.port), "--server-stats", "--monitor-port", Integer.toString(server.monitorPort),
                "--monitor-token-file", token.toString());
        assertEquals(1, refused.exit(), refused.all());
        assertEquals("", refused.out(), "nothing ran");
        assertEquals("nbench client: the monitor at 127.0.0.1:" + server.monitorPort + " refused the token from "
                + "--monitor-token-file (ERR bad token: connection closed): give the server's token through "
                + "NBENCH_MONITOR_TOKEN or --monitor-token-file", refused.err().strip());
        NbenchProcess.Result unreachable = NbenchProcess.run(dir, "022", "client", "--impl", "nio", "--port",
                Integer.toString(server.port), "--server-stats", "--monitor-port", Integer.toString(server.port),
                "--monitor-token-file", token.toString());
        assertEquals(1, unreachable.exit(), unreachable.all());
        assertEquals(1, unreachable.err().strip().lines().count(), unreachable.err());
        assertTrue(unreachable.err().startsWith("nbench client: "), unreachable.err());
        NbenchProcess.Result usage = NbenchProcess.run(dir, "022", "client", "--server-stats");
        assertEquals(2, usage.exit(), usage.all());
        assertTrue(usage.err().startsWith("nbench: --server-stats needs --monitor-port"), usage.err());
        assertFalse(usage.out().contains("Iteration"));
    }

    private static int indexOfPrefix(List<String> lines, String prefix) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(prefix)) {
                return i;
            }
        }
        throw new AssertionError("no line starting '" + prefix + "' in " + lines);
    }
}
