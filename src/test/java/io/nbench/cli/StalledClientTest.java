package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.testkit.NbenchProcess;
import io.nbench.testkit.ResultDocs;
import io.nbench.testkit.ScriptedServer.Action;
import io.nbench.testkit.ScriptedServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client stopped for a while (SIGSTOP: a machine that stalls, a debugger, a swapped-out process) must not turn
 * the iterations after the stall into short samples counted as full ones. The stall is injected for real: the
 * client runs in a JVM of its own against a server in this one, and is stopped for 1.2 s as soon as it has printed
 * its first iteration's line (the second starts at that cut; on a busy machine the line may reach the test later,
 * and the stop then lands in a later iteration: the property is the same). Every
 * iteration the document calls full then lasted at least half the iteration time, by its own wall time, and
 * only those are the summary's N. Nothing here depends on how fast the machine is.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class StalledClientTest {

    private static final long ITERATION_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    @TempDir
    Path dir;

    @Test
    void aStallLeavesNoShortIterationCountedAsAFullSample() throws Exception {
        Path out = dir.resolve("stalled.json");
        try (ScriptedServer server = new ScriptedServer(i -> Action.ANSWER)) {
            List<String> command = new ArrayList<>(NbenchProcess.command(List.of()));
            command.addAll(List.of("client", "--port", Integer.toString(server.address().getPort()), "--threads", "1",
                    "--connections", "1", "--size", "16", "--iteration-time", "500ms", "--iterations", "6",
                    "--warmup", "0", "--out", out.toString()));
            Process p = new ProcessBuilder(command).redirectError(dir.resolve("err.txt").toFile()).start();
            StringBuilder printed = new StringBuilder();
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                boolean stopped = false;
                while ((line = lines.readLine()) != null) {
                    printed.append(line).append('\n');
                    if (!stopped && line.startsWith("Iteration 1/6:")) {
                        // Iteration 2 has begun: stop the whole client in it, then let it go on.
                        signal("-STOP", p.pid());
                        Thread.sleep(1200);
                        signal("-CONT", p.pid());
                        stopped = true;
                    }
                }
                assertTrue(stopped, "the client printed its first iteration: " + printed);
                assertTrue(p.waitFor(NbenchProcess.HANG_MINUTES, TimeUnit.MINUTES), printed.toString());
            } finally {
                NbenchProcess.destroyTree(p);
            }
            assertEquals(0, p.exitValue(), printed + Files.readString(dir.resolve("err.txt")));
        }
        JsonNode doc = ResultDocs.read(out);
        JsonNode combination = doc.get("combinations").get(0);
        List<String> walls = new ArrayList<>();
        combination.get("iterations").forEach(it -> walls.add(it.get("wallNs").asLong() / 1_000_000 + " ms"
                + (it.get("partial").asBoolean() ? " partial" : "")));
        int full = 0;
        for (JsonNode it : combination.get("iterations")) {
            long wall = it.get("wallNs").asLong();
            if (!it.get("partial").asBoolean()) {
                full++;
                assertTrue(wall >= ITERATION_NANOS / 2, "iteration " + it.get("index") + " lasted " + wall
                        + " ns of 500 ms and is counted as a full sample; iterations: " + walls);
            }
        }
        JsonNode summary = combination.get("summary");
        assertEquals(full, summary.get("iterations").asInt(), "the summary counts the full iterations only: " + summary);
        assertEquals(full, summary.get("throughput").get("n").asInt(), summary.toString());
        // The stopped iteration runs its time from its start, so it lasts the stop longer: it is counted, and named
        // in a warning, as is every counted iteration that overran its time by half (from its own wall time).
        List<String> overran = new ArrayList<>();
        for (JsonNode it : combination.get("iterations")) {
            if (!it.get("partial").asBoolean() && it.get("wallNs").asLong() > ITERATION_NANOS * 3 / 2) {
                overran.add(it.get("index").asText());
            }
        }
        assertTrue(!overran.isEmpty(), "the 1.2 s stop is in some iteration's wall time: " + walls);
        String warnings = summary.get("warnings").toString();
        assertTrue(warnings.contains("lasted over 1.5x the iteration time (iteration " + String.join(", ", overran) + ":"),
                "iterations " + overran + " overran 750 ms and are named: " + warnings);
    }

    private static void signal(String signal, long pid) throws Exception {
        Process kill = new ProcessBuilder("kill", signal, Long.toString(pid)).inheritIO().start();
        assertTrue(kill.waitFor(30, TimeUnit.SECONDS) && kill.exitValue() == 0, "kill " + signal + " " + pid);
    }
}
