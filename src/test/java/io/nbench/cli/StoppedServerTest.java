package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.client.ExitCode;
import io.nbench.testkit.ServerProcess;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real server process frozen with SIGSTOP in the middle of a run: the kernel still accepts
 * and buffers, nothing is answered. The client must stop with exit 1, one line naming the cause, and
 * the warmup it measured printed and written.
 */
class StoppedServerTest {

    @Test
    @EnabledOnOs({OS.LINUX, OS.MAC})
    void aServerStoppedMidRunEndsTheRunWithWhatWasMeasured(@TempDir Path dir) throws Exception {
        try (ServerProcess server = ServerProcess.start(Map.of(), "--impl", "nio", "--port", "0")) {
            try {
                stallMidRun(server, dir);
            } finally {
                signal("CONT", server.pid()); // so that close() can end it with SIGTERM
            }
        }
    }

    private static void stallMidRun(ServerProcess server, Path dir) throws Exception {
        Path json = dir.resolve("r.json");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        AtomicInteger code = new AtomicInteger(-1);
        Thread client = new Thread(() -> code.set(Main.run(new String[] {"client", "--port", Integer.toString(server.port),
            "--threads", "2", "--iteration-time", "1s", "--warmup", "1", "--iterations", "20", "--timeout", "1s",
            // Errors tolerated, so the stall rule is what ends the run: with the default budget of 0 the first
            // timeout may end it first (exit 4, "errors > --max-errors 0"), whichever the watchdog sees first.
            "--max-errors", "100%", "--out", json.toString()}, new PrintWriter(out, true), new PrintWriter(err, true))), "client");
        client.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!out.toString().contains("Warmup 1/1") && System.nanoTime() < deadline && client.isAlive()) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20)); // the warmup line is the event
        }
        assertTrue(out.toString().contains("Warmup 1/1"), out + err.toString());
        signal("STOP", server.pid());
        client.join(TimeUnit.SECONDS.toMillis(30));
        assertEquals(ExitCode.COULD_NOT_RUN, code.get(), out + err.toString());
        String[] errLines = err.toString().strip().split("\n");
        assertEquals(1, errLines.length, err.toString());
        assertTrue(errLines[0].startsWith("nbench client: run aborted: no response from the server on any of the 2 "
                + "connection(s) for "), err.toString());
        assertTrue(out.toString().contains("Result: ABORTED"), out.toString());
        String doc = Files.readString(json).replaceAll("\\s", "");
        assertTrue(doc.contains("\"abortCause\":\"stalled\""), doc);
        assertTrue(doc.contains("\"warmup\":true"), "the warmup is in the result file");
    }

    /**
     * A server killed before it answered anything (its work outlasts the first request) closes every
     * connection: the client says so, and blames nothing it has no evidence for (the request's size: the
     * server's --max-frame is 16 MiB here).
     */
    @Test
    @EnabledOnOs({OS.LINUX, OS.MAC})
    void aServerKilledBeforeItsFirstAnswerIsNotBlamedOnTheRequestSize() throws Exception {
        try (ServerProcess server = ServerProcess.start(Map.of(),
                "--impl", "nio", "--port", "0", "--work", "60s", "--report-interval", "100ms")) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            AtomicInteger code = new AtomicInteger(-1);
            Thread client = new Thread(() -> code.set(Main.run(new String[] {"client", "--port",
                Integer.toString(server.port), "--threads", "2", "--iteration-time", "1s", "--warmup", "0",
                "--iterations", "20", "--timeout", "60s", "--max-errors", "100%"}, new PrintWriter(out, true),
                new PrintWriter(err, true))), "client");
            client.start();
            server.awaitLine(l -> l.matches(".*connections [1-9]\\d* open.*")); // the client is connected and sending
            signal("KILL", server.pid());
            client.join(TimeUnit.SECONDS.toMillis(60));
            assertEquals(ExitCode.COULD_NOT_RUN, code.get(), out + err.toString());
            String[] errLines = err.toString().strip().split("\n");
            assertEquals(1, errLines.length, err.toString());
            assertEquals("nbench client: run aborted: the server closed every connection after the first request "
                    + "without answering any (payload 1024 bytes, response 1024 bytes): it stopped, or it refused "
                    + "the request; if it is up, its log says why", errLines[0]);
        }
    }

    private static void signal(String name, long pid) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid)).inheritIO().start();
        assertEquals(0, kill.waitFor(), "kill -" + name);
    }
}
