package io.nbench.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nbench.client.monitor.MonitorConsole;
import io.nbench.testkit.NbenchProcess;
import io.nbench.testkit.ServerProcess;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code nbench console} against a real server's monitor: in a pipe, and on a real terminal (tmux). */
class ConsoleTest {

    private static final String TOKEN = "console-test-token";
    private static ServerProcess server;

    @BeforeAll
    static void startServer() throws Exception {
        server = ServerProcess.withMonitor(TOKEN);
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close();
    }

    private static NbenchProcess.Result console(String input, String token, String... args) throws Exception {
        List<String> command = new ArrayList<>(NbenchProcess.command(List.of()));
        command.addAll(List.of("console", "--monitor-port", Integer.toString(server.monitorPort)));
        command.addAll(List.of(args));
        ProcessBuilder b = new ProcessBuilder(command);
        b.environment().remove(MonitorToken.ENV);
        if (token != null) {
            b.environment().put(MonitorToken.ENV, token);
        }
        Process p = b.start();
        try (OutputStream in = p.getOutputStream()) {
            in.write(input.getBytes(StandardCharsets.UTF_8));
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("console did not end");
        }
        return new NbenchProcess.Result(p.exitValue(), out, err);
    }

    @Test
    void inAPipeItAnswersEachCommandLineAndEndsAtQuit() throws Exception {
        NbenchProcess.Result r = console("metrics\n\nmetrics json\nnonsense\nquit\nhelp\n", TOKEN);
        assertEquals(0, r.exit(), r.all());
        assertEquals("", r.err());
        List<String> lines = r.out().lines().toList();
        assertTrue(lines.get(0).startsWith("server metrics since reset, "), r.out());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("{\"format\":\"nbench-server-metrics-1\"")), r.out());
        assertTrue(lines.contains("ERR unknown command 'nonsense': try help"), r.out());
        assertEquals("ERR unknown command 'nonsense': try help", lines.get(lines.size() - 1), "nothing after quit: "
                + r.out());
        assertTrue(lines.stream().noneMatch(l -> l.equals(".")), "the end marker is the console's, not shown");
    }

    /**
     * The README's script, {@code printf 'metrics json\nquit\n' | nbench console ... | jq}: stdout is the JSON
     * document alone (the monitor's BYE, its acknowledgement of quit, is no answer a script reads), so jq parses it.
     */
    @Test
    void inAPipeMetricsJsonThenQuitIsOneJsonDocument() throws Exception {
        NbenchProcess.Result r = console("metrics json\nquit\n", TOKEN);
        assertEquals(0, r.exit(), r.all());
        assertEquals("", r.err());
        // as jq reads it: one document, nothing after it
        JsonNode doc = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).readTree(r.out());
        assertEquals("nbench-server-metrics-1", doc.path("format").asText(), r.out());
        assertEquals(1, r.out().strip().lines().count(), r.out());
    }

    @Test
    void theEndOfTheInputQuitsAndAWrongOrMissingTokenIsOneLine() throws Exception {
        NbenchProcess.Result ok = console("reset\n", TOKEN);
        assertEquals(0, ok.exit(), ok.all());
        assertTrue(ok.out().startsWith("OK reset"), ok.out());
        NbenchProcess.Result bad = console("metrics\n", "not-it");
        assertEquals(1, bad.exit(), bad.all());
        assertEquals("nbench console: the monitor at 127.0.0.1:" + server.monitorPort + " refused the token from "
                + "NBENCH_MONITOR_TOKEN (ERR bad token: connection closed): give the server's token through "
                + "NBENCH_MONITOR_TOKEN or --monitor-token-file", bad.err().strip());
        NbenchProcess.Result none = console("metrics\n", null);
        assertEquals(2, none.exit(), none.all());
        assertTrue(none.err().startsWith("nbench: no monitor token: set NBENCH_MONITOR_TOKEN or give "
                + "--monitor-token-file"), none.err());
        NbenchProcess.Result missing = console("", TOKEN, "--monitor-token-file", "/nonexistent/token");
        assertEquals(2, missing.exit(), missing.all());
        assertTrue(missing.err().startsWith("nbench: --monitor-token-file /nonexistent/token does not exist"),
                missing.err());
    }

    /** A real terminal: Tab completes a command, the arrow key recalls history, which is kept in the file. */
    @Test
    void onATerminalItCompletesCommandsAndKeepsHistory(@TempDir Path home) throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/tmux")), "tmux is not installed");
        String session = "nbench-console-test-" + ProcessHandle.current().pid();
        StringBuilder shell = new StringBuilder("env " + MonitorToken.ENV + "=" + TOKEN);
        for (String word : NbenchProcess.command(List.of("-Duser.home=" + home))) {
            shell.append(" '").append(word.replace("'", "'\\''")).append('\'');
        }
        shell.append(" console --monitor-port ").append(server.monitorPort).append("; echo console-exit-$?; sleep 60");
        tmux("new-session", "-d", "-s", session, "-x", "160", "-y", "50", shell.toString());
        try {
            await(session, MonitorConsole.PROMPT);
            tmux("send-keys", "-t", session, "res", "Tab", "Enter");
            await(session, "OK reset");
            tmux("send-keys", "-t", session, "metrics j", "Tab", "Enter");
            await(session, "{\"format\":\"nbench-server-metrics-1\"");
            tmux("send-keys", "-t", session, "Up", "Up", "Enter");
            awaitCount(session, "OK reset", 2);
            tmux("send-keys", "-t", session, "quit", "Enter");
            await(session, "console-exit-0");
            String screen = capture(session);
            assertTrue(screen.contains(MonitorConsole.PROMPT + "reset"), "completed: " + screen);
            assertTrue(screen.contains(MonitorConsole.PROMPT + "metrics json"), "completed: " + screen);
            List<String> history = Files.readAllLines(home.resolve(".nbench_console_history"));
            assertEquals(List.of("reset", "metrics json", "reset", "quit"),
                    history.stream().map(l -> l.substring(l.indexOf(':') + 1)).toList());
        } finally {
            tmux("kill-session", "-t", session);
        }
    }

    private static void await(String session, String text) throws Exception {
        awaitCount(session, text, 1);
    }

    /** Polls the screen (a terminal has no event to wait on) until {@code text} shows {@code times} times, 60 s at most. */
    private static void awaitCount(String session, String text, int times) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        String screen = "";
        while (System.nanoTime() < deadline) {
            screen = capture(session);
            if (screen.split(Pattern.quote(text), -1).length - 1 >= times) {
                return;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
        throw new AssertionError("'" + text + "' not shown " + times + " time(s); the screen: " + screen);
    }

    private static String capture(String session) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("tmux", "capture-pane", "-p", "-J", "-t", session).start();
        String screen = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(10, TimeUnit.SECONDS);
        return screen;
    }

    private static void tmux(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("tmux"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        p.waitFor(10, TimeUnit.SECONDS);
    }
}
