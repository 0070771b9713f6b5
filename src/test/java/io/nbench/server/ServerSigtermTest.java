package io.nbench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.testkit.ServerProcess;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** A server stopped by a real SIGTERM prints its report and exits 0: stopping it is how it is meant to end. */
class ServerSigtermTest {

    @Test
    @EnabledOnOs({OS.LINUX, OS.MAC})
    void sigtermStopsTheServerCleanlyWithItsReportAndExitCode0() throws Exception {
        try (ServerProcess server = ServerProcess.start(Map.of(), "--impl", "nio", "--port", "0", "--monitor-port", "0")) {
            server.awaitLine(l -> l.startsWith("  monitor token: "));
            Process kill = new ProcessBuilder("kill", "-TERM", Long.toString(server.pid())).inheritIO().start();
            assertEquals(0, kill.waitFor());
            assertEquals(0, server.waitFor(), "exit code after SIGTERM; stderr: " + server.stderr());
            assertTrue(server.awaitLine(l -> l.startsWith("server metrics after ")).contains("requests 0"));
            assertTrue(server.awaitLine(l -> l.startsWith("  process: CPU ")).contains("GC"));
            assertEquals("", server.stderr());
        }
    }
}
