package io.nbench.cli;

import io.nbench.client.ExitCode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** nbench run: real child-JVM servers, the client against each, a comparison, nothing left behind. */
class RunCommandTest {

    @Test
    void comparesServersInChildJvmsAndLeavesNoProcessBehind(@TempDir Path dir) {
        CliTest.Outcome o = CliTest.run("run", "--servers", "netty,nio", "--threads", "2", "--msgs", "200",
                "--warmup", "0", "--iterations", "2", "--results-dir", dir.toString());
        assertEquals(0, o.code(), o.out() + o.err());
        assertTrue(o.out().contains("=== server netty (child JVM) ==="), o.out());
        assertTrue(o.out().contains("=== server nio (child JVM) ==="), o.out());
        assertTrue(o.out().contains("nbench server: nio listening on 127.0.0.1:"), o.out());
        assertTrue(o.out().contains("server metrics after"), "each server's metrics: " + o.out());
        assertTrue(o.out().contains("=== comparison of the servers (A = netty) ==="), o.out());
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

    @Test
    void inProcessRunsTheInJvmTransportsAgainstThemselves() {
        // Time-based: a synchronous in-JVM pipe (mina-vmpipe) must still hand control back at the boundaries.
        CliTest.Outcome o = CliTest.run("run", "--in-process", "--threads", "2", "--iteration-time", "200ms",
                "--warmup", "0", "--iterations", "2");
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
        "run --in-process --servers netty", "run --size 5x", "run --out x.json"})
    void badRunArgumentsAreUsageErrors(String line) {
        CliTest.Outcome o = CliTest.run(line.split(" "));
        assertEquals(ExitCode.USAGE, o.code(), o.out() + o.err());
        assertEquals(1, o.err().strip().lines().count(), o.err());
    }
}
