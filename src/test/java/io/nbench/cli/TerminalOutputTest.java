package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.nbench.client.ExitCode;
import io.nbench.protocol.Protocol;
import io.nbench.report.Tty;
import io.nbench.testkit.AlignedTables;
import io.nbench.testkit.NbenchProcess;
import io.nbench.testkit.TestMatrix;
import io.nbench.testkit.TestServers;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The client in a real JVM under a real pseudo-terminal of 80 columns (util-linux {@code script}): the
 * progress line goes where stderr is a terminal, never wraps, and never leaves escape codes in a file; text
 * on a terminal keeps iteration lines to 120 columns.
 */
@EnabledOnOs(OS.LINUX)
class TerminalOutputTest {

    private static int port;

    @BeforeAll
    static void server() {
        assumeTrue(new File("/usr/bin/script").canExecute() || new File("/bin/script").canExecute(),
                "util-linux script is needed for a pseudo-terminal");
        port = TestServers.get("nio", Protocol.FRAMED).address().getPort();
    }

    /** A sweep of 2 combinations (the prefix made the line 107 columns), 2 progress updates per iteration. */
    private static String client(String extra) {
        return client("1,2", extra);
    }

    /** As {@link #client(String)} with {@code --threads threads}: one combination per value. */
    private static String client(String threads, String extra) {
        return NbenchProcess.shellCommand() + " client"
                + " --port " + port + " --iteration-time 2200ms --warmup 0 --iterations 1 --threads " + threads + " "
                + extra;
    }

    private static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    /** Runs {@code command} under an 80-column pseudo-terminal; returns everything the terminal received. */
    private static String terminal(String command, Map<String, String> env) throws Exception {
        return terminal(command, env, false);
    }

    /**
     * Runs {@code command} under an 80-column pseudo-terminal; its exit code must be 0, or also 4 or 5 (a FAIL
     * verdict, e.g. an open-loop rate missed, or nothing measured, as a loaded machine may give a 300 ms
     * iteration of an open loop) when only the layout is under test.
     */
    private static String terminal(String command, Map<String, String> env, boolean verdictAside) throws Exception {
        return terminal(80, command, env, verdictAside);
    }

    /** As {@link #terminal(String, Map, boolean)} on a terminal of {@code columns}. */
    private static String terminal(int columns, String command, Map<String, String> env, boolean verdictAside)
            throws Exception {
        ProcessBuilder pb = new ProcessBuilder("script", "-qfec", "stty cols " + columns + " rows 40; " + command,
                "/dev/null")
                .redirectInput(ProcessBuilder.Redirect.PIPE).redirectErrorStream(true);
        pb.environment().put("TERM", "xterm");
        pb.environment().remove("COLUMNS");
        pb.environment().putAll(env);
        Process p = pb.start();
        byte[] bytes = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        String screen = new String(bytes, StandardCharsets.UTF_8);
        if (!(verdictAside && (p.exitValue() == ExitCode.FAILED || p.exitValue() == ExitCode.NOTHING_MEASURED))) {
            assertEquals(0, p.exitValue(), screen);
        }
        return screen;
    }

    /** What the terminal shows as rows: split at line feeds and carriage returns, erase sequences removed. */
    private static List<String> rows(String screen) {
        List<String> rows = new ArrayList<>();
        for (String line : screen.split("\n", -1)) {
            for (String row : line.split("\r", -1)) {
                rows.add(row.replace("\033[K", ""));
            }
        }
        return rows;
    }

    @Test
    void progressOnAnEightyColumnTerminalNeverWraps(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("out.txt");
        String screen = terminal(client("> " + quote(out.toString())), Map.of());
        assertTrue(screen.contains("\r\033[K[2/2] iteration 1/1: "), screen);
        for (String row : rows(screen)) {
            assertTrue(Tty.columns(row) <= 80, "over 80 columns: " + row);
        }
        assertFalse(Files.readString(out).contains("\033"), "escape codes on stdout");
    }

    /**
     * One combination, not the sweep of two (2.2 s less): stderr is a file, so no progress is drawn, and one
     * iteration of 2.2 s would have drawn two updates.
     */
    @Test
    void stderrIntoAFileGetsNoEscapeCodes(@TempDir Path dir) throws Exception {
        Path err = dir.resolve("err.txt");
        String screen = terminal(client("1", "2> " + quote(err.toString())), Map.of());
        assertTrue(screen.contains("Iteration 1/1:"), screen);
        String log = Files.readString(err);
        assertFalse(log.contains("\033") || log.contains("\r"), "escape codes in the stderr file: " + log);
        assertEquals("", log);
    }

    @Test
    void jsonIntoAFileShowsProgressOnTheTerminalOnly(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("r.json");
        String screen = terminal(client("--format json > " + quote(json.toString())), Map.of());
        assertTrue(screen.contains("\r\033[K[1/2] iteration 1/1: "), screen);
        String document = Files.readString(json);
        assertTrue(document.startsWith("{") && document.contains("\"schema\" : \"nbench-result/1\""), document);
        assertFalse(document.contains("iteration 1/1:"), document);
    }

    @Test
    void aDumbTerminalGetsPlainLines(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("out.txt");
        String screen = terminal(client("> " + quote(out.toString())), Map.of("TERM", "dumb"));
        assertTrue(screen.contains("[2/2] iteration 1/1: "), screen);
        assertFalse(screen.contains("\033"), "escape codes on a dumb terminal: " + screen);
        for (String row : rows(screen)) {
            assertTrue(Tty.columns(row) <= 80, "over 80 columns: " + row);
        }
    }

    @Test
    void textOnATerminalKeepsEachIterationTo120Columns() throws Exception {
        String screen = terminal(NbenchProcess.shellCommand() + " client --port " + port + " --iteration-time 300ms --warmup 1 --iterations 2"
                + " --rate 500 --progress never", Map.of(), true);
        List<String> lines = screen.lines().map(l -> l.replace("\r", "")).toList();
        int iterations = 0;
        boolean inIteration = false;
        boolean openLoopLine = false;
        for (String line : lines) {
            if (line.startsWith("Warmup ") || line.startsWith("Iteration ")) {
                iterations++;
                inIteration = true;
                assertTrue(line.contains("| errors "), line);
            } else if (inIteration && !line.startsWith("    ")) {
                inIteration = false;
            }
            if (inIteration) {
                assertTrue(Tty.columns(line) <= 120, "over 120 columns: " + line);
                openLoopLine |= line.startsWith("    rate ");
            }
        }
        assertEquals(3, iterations, screen);
        assertTrue(openLoopLine, "the open-loop figures on an indented line: " + screen);
    }

    /**
     * {@code nbench run}'s comparison of three servers on a terminal of 80 columns and of 120 (issue 30.1: rows
     * over 120 columns were re-wrapped word by word): within the width, every row's cells under its header's, the
     * figures of every server under A's, and each server's row of every metric a figure, a ratio and a verdict.
     * Every commit runs 80 columns alone (about 20 s of CI time each): a run that did not take the terminal's
     * width would lay out for 120, its default, and fail there; both layouts at both widths are checked in this
     * JVM by CompareBlocksTest. {@code -Pmatrix} adds the terminal of 120.
     */
    @ParameterizedTest
    @MethodSource("comparisonWidths")
    void runsComparisonOfThreeServersFitsTheTerminal(int columns) throws Exception {
        String screen = terminal(columns, NbenchProcess.shellCommand() + " run --servers netty,nio,mina"
                + " --iteration-time 200ms --warmup 1 --iterations 2", Map.of(), true);
        // Nothing rewrites a line once the comparison starts: the terminal's lines, their carriage returns dropped.
        List<String> lines = screen.lines().map(l -> l.replace("\r", "")).toList();
        int from = lines.indexOf("=== comparison of the servers (A = netty) ===");
        assertTrue(from >= 0, screen);
        List<String> comparison = lines.subList(from, lines.size());
        AlignedTables.assertFits(comparison, columns);
        List<AlignedTables.Table> tables = AlignedTables.tables(comparison);
        // 120 columns: a block for each other server with A's figures beside its own; 80: A's figures first.
        boolean beside = columns >= 120;
        assertEquals(beside ? 2 : 3, tables.size(), "a block for each other server: " + screen);
        AlignedTables.assertSameColumns(tables, beside ? 3 : 2);
        List<String> metrics = tables.get(0).rows().stream().map(r -> tables.get(0).cells(r).get(0)).toList();
        assertTrue(metrics.containsAll(List.of("throughput", "mean", "p50", "p99.9", "max", "client CPU", "server CPU",
                "client CPU/msg", "server CPU/msg")), metrics.toString());
        for (AlignedTables.Table t : beside ? tables : tables.subList(1, 3)) {
            List<List<String>> rows = t.rows().stream().map(t::cells).filter(c -> !c.get(0).isEmpty()).toList();
            assertEquals(metrics, rows.stream().map(c -> c.get(0)).toList());
            rows.forEach(c -> assertTrue(c.stream().noneMatch(String::isEmpty), "a cell missing: " + c));
        }
    }

    static IntStream comparisonWidths() {
        return TestMatrix.FULL ? IntStream.of(80, 120) : IntStream.of(80);
    }

    @Test
    void progressAlwaysIntoAPipeIsPlainLines() {
        // Not a terminal (this JVM's stderr is the test's writer): plain lines, one per second, no escape code.
        CliTest.Outcome o = CliTest.run("client", "--port", Integer.toString(port), "--iteration-time", "2200ms",
                "--warmup", "0", "--iterations", "1", "--progress", "always");
        assertEquals(0, o.code(), o.out() + o.err());
        assertFalse(o.err().contains("\033") || o.err().contains("\r"), o.err());
        List<String> lines = o.err().lines().toList();
        assertTrue(lines.size() >= 1, o.err());
        lines.forEach(l -> assertTrue(l.startsWith("iteration 1/1: ") && l.contains(" msg/s, p50 "), l));
        // Elapsed and left: a time-based run of 2.2 s, so the two add up to the planned 2 s (whole seconds cut).
        for (String l : lines) {
            Matcher m = Pattern.compile("\\| (\\d+):(\\d\\d) elapsed, (\\d+):(\\d\\d) left$")
                    .matcher(l);
            assertTrue(m.find(), l);
            int elapsed = Integer.parseInt(m.group(1)) * 60 + Integer.parseInt(m.group(2));
            int left = Integer.parseInt(m.group(3)) * 60 + Integer.parseInt(m.group(4));
            assertTrue(elapsed + left >= 1 && elapsed + left <= 2, l);
        }
        assertFalse(CliTest.run("client", "--port", Integer.toString(port), "--msgs", "10", "--warmup", "0",
                "--iterations", "1").err().contains("iteration 1/1:"), "auto: no progress into a pipe");
    }
}
