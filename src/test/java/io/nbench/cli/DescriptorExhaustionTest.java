package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.client.ExitCode;
import io.nbench.protocol.Protocol;
import io.nbench.testkit.NbenchProcess;
import io.nbench.testkit.ScriptedServer;
import io.nbench.testkit.TestServers;
import io.nbench.testkit.Transports;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** Errors that name their fix: too few file descriptors for the connections, and --max-errors as a percentage. */
class DescriptorExhaustionTest {

    @Test
    @EnabledOnOs({OS.LINUX, OS.MAC})
    void tooFewDescriptorsIsOneLineWithTheUlimitFixForEveryClientTransport() throws Exception {
        int port = TestServers.get("nio", Protocol.FRAMED).address().getPort();
        for (String transport : Transports.network()) {
            if (!Transports.get(transport).availability().available()) {
                continue; // vthreads on JDK 17
            }
            // The client in a JVM of its own under `ulimit -n 64`; the server (this JVM) keeps its limit.
            String command = "ulimit -n 64; exec " + NbenchProcess.shellCommand() + " client --impl " + transport
                    + " --port " + port
                    + " --connections 100 --msgs 10 --warmup 0 --iterations 1";
            Process p = new ProcessBuilder("bash", "-c", command).start();
            CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
            String err = read(p.getErrorStream());
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
            assertEquals(ExitCode.COULD_NOT_RUN, p.exitValue(), transport + ": " + out.get() + err);
            String[] lines = err.strip().split("\n");
            assertEquals(1, lines.length, transport + ": " + err);
            assertTrue(Pattern.matches("nbench client: cannot connect to 127\\.0\\.0\\.1:" + port + ": too many open "
                    + "files: 100 connection\\(s\\) need about \\d+ file descriptors and this process may open 64 "
                    + "\\(\\d+ open already\\): raise the limit with 'ulimit -n 4096' in the shell that starts nbench, "
                    + "or use fewer --connections", lines[0]), transport + ": " + lines[0]);
        }
    }

    /**
     * The connection limit a server advertises (and enforces) fits its descriptor limit: under
     * {@code ulimit -n 128} a server cannot hold 18,084 connections, whatever its memory allows.
     */
    @Test
    @EnabledOnOs({OS.LINUX, OS.MAC})
    void theServersDefaultConnectionLimitFitsItsDescriptorLimit() throws Exception {
        Process p = new ProcessBuilder("bash", "-c", "ulimit -n 128; exec " + NbenchProcess.shellCommand()
                + " server --impl netty --port 0 --duration 1ms").start();
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        String out = read(p.getInputStream());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out + err.get());
        String first = out.lines().findFirst().orElse("");
        Matcher m = Pattern.compile(", max connections ([\\d,]+) \\(([^)]*)\\)").matcher(first);
        assertTrue(m.find(), first);
        int max = Integer.parseInt(m.group(1).replace(",", ""));
        assertTrue(max > 0 && max < 128, "at most what 128 descriptors leave, less those open already: " + first);
        assertTrue(m.group(2).contains("ulimit -n 128"), first);
    }

    private static String read(InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void maxErrorsAsAPercentagePrintsTheActualPercentage() throws Exception {
        // 1 rejection in 4 messages: 25%, over --max-errors 10%.
        try (ScriptedServer rejecting = new ScriptedServer(i -> i == 0 ? ScriptedServer.Action.REJECT
                : ScriptedServer.Action.ANSWER)) {
            CliTest.Outcome o = CliTest.run("client", "--port", Integer.toString(rejecting.address().getPort()),
                    "--threads", "1", "--msgs", "4", "--warmup", "0", "--iterations", "1", "--max-errors", "10%");
            assertEquals(ExitCode.FAILED, o.code(), o.out() + o.err());
            assertTrue(o.out().contains("Result: FAIL: 1 errors, 25% of 4 messages, > --max-errors 10%"), o.out());
        }
    }
}
