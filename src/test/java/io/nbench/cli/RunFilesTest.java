package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.client.ExitCode;
import io.nbench.report.json.ResultDocument;
import io.nbench.stats.HistogramCodec;
import io.nbench.stats.LatencyHistograms;
import io.nbench.testkit.NbenchProcess;
import io.nbench.testkit.ResultDocs;
import java.io.BufferedReader;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code nbench run} with files: every server's data kept (hdr-log intervals tagged with the server, one hgrm
 * per server and combination, fork documents compared), only existing files named, no temporary file left,
 * also on SIGINT. In-JVM transports where the property allows it; child JVMs where it needs a real process
 * (its own temporary directory, a signal).
 */
class RunFilesTest {

    @TempDir
    Path dir;

    private static final List<String> SHORT = List.of("--threads", "2", "--msgs", "100", "--warmup", "1",
            "--iterations", "2");

    private static CliTest.Outcome run(String... more) {
        List<String> args = new ArrayList<>(List.of("run", "--in-process"));
        args.addAll(SHORT);
        args.addAll(List.of(more));
        return CliTest.run(args.toArray(new String[0]));
    }

    /** Every measured interval of the log (tagged, not ";warmup"; untagged ones are copies), merged per tag. */
    private static Map<String, Histogram> measuredByTag(Path log) throws IOException {
        Map<String, Histogram> byTag = new LinkedHashMap<>();
        try (FileInputStream in = new FileInputStream(log.toFile())) {
            HistogramLogReader reader = new HistogramLogReader(in);
            EncodableHistogram h;
            while ((h = reader.nextIntervalHistogram()) != null) {
                String tag = h.getTag();
                if (tag != null && !tag.endsWith(";warmup")) {
                    byTag.computeIfAbsent(tag, k -> LatencyHistograms.newHistogram()).add((Histogram) h);
                }
            }
        }
        return byTag;
    }

    private static Histogram measured(Path document) throws IOException {
        JsonNode doc = ResultDocs.read(Files.readString(document));
        Histogram merged = LatencyHistograms.newHistogram();
        for (JsonNode it : doc.get("combinations").get(0).get("iterations")) {
            if (!it.get("warmup").asBoolean()) {
                merged.add(HistogramCodec.decode(it.get("histogram").asText()));
            }
        }
        return merged;
    }

    @Test
    void hdrLogKeepsEveryServersIntervalsTaggedWithTheServer() throws IOException {
        Path log = dir.resolve("lat.hlog");
        Path results = dir.resolve("results");
        CliTest.Outcome o = run("--hdr-log", log.toString(), "--results-dir", results.toString());
        assertEquals(ExitCode.OK, o.code(), o.out() + o.err());
        assertEquals("", o.err());
        Map<String, Histogram> byServer = new LinkedHashMap<>();
        measuredByTag(log).forEach((tag, h) -> byServer.put(tag.replaceAll(";size=.*", ""), h));
        assertEquals(Set.of("server=netty-local;impl=netty-local", "server=mina-vmpipe;impl=mina-vmpipe"),
                byServer.keySet());
        for (String server : List.of("netty-local", "mina-vmpipe")) {
            Histogram document = measured(results.resolve(server + ".json"));
            JsonNode measuredServer = ResultDocs.read(Files.readString(results.resolve(server + ".json")))
                    .at("/configuration/server");
            assertEquals(server, measuredServer.path("transport").asText(), measuredServer.toString());
            assertEquals("run", measuredServer.path("source").asText(), measuredServer.toString());
            assertEquals(2 * 100 * 2, document.getTotalCount());
            assertEquals(document, byServer.get("server=" + server + ";impl=" + server),
                    server + ": the log's measured intervals are its document's");
        }
        // HistogramLogProcessor without -tag: an untagged copy of the first server's first combination, only.
        String untagged = Files.readAllLines(log).stream().filter(l -> l.startsWith("#nbench untagged: "))
                .findFirst().orElseThrow().substring("#nbench untagged: ".length());
        Histogram copies = LatencyHistograms.newHistogram();
        try (FileInputStream in = new FileInputStream(log.toFile())) {
            HistogramLogReader reader = new HistogramLogReader(in);
            EncodableHistogram h;
            while ((h = reader.nextIntervalHistogram()) != null) {
                if (h.getTag() == null) {
                    copies.add((Histogram) h);
                }
            }
        }
        assertEquals(measuredByTag(log).get(untagged), copies);
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(Set.of("lat.hlog", "results"), files.map(f -> f.getFileName().toString())
                    .collect(Collectors.toSet()), "no temporary file beside the log");
        }
    }

    /**
     * One run of two child-JVM servers gives both files: {@code --hgrm} one file per server and combination, and
     * {@code --report} one page of every server's results. They were two runs of the same servers (about 10 s of
     * CI time each, mostly the servers' JVMs); each file's assertions are as they were.
     */
    @Test
    void hgrmWritesOneFilePerServerAndCombinationAndReportIsOnePageOfEveryServersResults() throws Exception {
        // Child-JVM servers, one client transport (netty) for both: the combinations' names alone would collide.
        Path hgrms = Files.createDirectory(dir.resolve("hgrm"));
        Path page = dir.resolve("report.html");
        CliTest.Outcome o = CliTest.run("run", "--servers", "netty,nio", "--threads", "1", "--msgs", "100",
                "--warmup", "0", "--iterations", "2", "--size", "100,200", "--hgrm",
                hgrms.resolve("lat-{combination}.hgrm").toString(), "--results-dir", dir.resolve("results").toString(),
                "--report", page.toString());
        assertEquals(ExitCode.OK, o.code(), o.out() + o.err());
        assertEquals(List.of("lat-server-netty_impl-netty_size-100_threads-1_window-1.hgrm",
                "lat-server-netty_impl-netty_size-200_threads-1_window-1.hgrm",
                "lat-server-nio_impl-netty_size-100_threads-1_window-1.hgrm",
                "lat-server-nio_impl-netty_size-200_threads-1_window-1.hgrm"), list(hgrms));
        CliTest.Outcome one = run("--hgrm", dir.resolve("one.hgrm").toString());
        assertEquals(ExitCode.USAGE, one.code(), one.out() + one.err());
        assertEquals(1, one.err().strip().lines().count(), one.err());
        assertTrue(one.err().contains("put {combination} in it"), one.err());
        assertEquals("", one.out(), "refused before any server starts");

        assertTrue(o.out().contains("Report: " + page + "\n"), o.out());
        Matcher m = Pattern.compile(
                "<script type=\"application/json\" id=\"nbench-data\">(.*?)</script>", Pattern.DOTALL)
                .matcher(Files.readString(page));
        assertTrue(m.find());
        JsonNode data = ResultDocument.MAPPER.readTree(m.group(1));
        assertEquals(2, data.path("files").size());
        assertEquals("server netty, " + dir.resolve("results").resolve("netty.json"), data.path("files").get(0).path("name").asText());
        assertEquals(2, data.path("comparison").path("files").size(), "the servers compared, as run's table does");

        Path readOnly = Files.writeString(dir.resolve("old.html"), "previous");
        Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("r--r--r--"));
        CliTest.Outcome refused = run("--report", readOnly.toString());
        assertEquals(ExitCode.COULD_NOT_RUN, refused.code(), refused.out() + refused.err());
        assertEquals("", refused.out(), "refused before any server starts");
        assertTrue(refused.err().startsWith("nbench run: cannot write --report " + readOnly + ": read-only file"), refused.err());
    }

    @Test
    void readOnlyResultsFileIsRefusedBeforeAnyServerStarts() throws IOException {
        Path results = Files.createDirectory(dir.resolve("results"));
        Path old = Files.writeString(results.resolve("mina-vmpipe.json"), "previous");
        Files.setPosixFilePermissions(old, PosixFilePermissions.fromString("r--r--r--"));
        CliTest.Outcome o = run("--results-dir", results.toString());
        assertEquals(ExitCode.COULD_NOT_RUN, o.code(), o.out() + o.err());
        assertEquals(List.of("nbench run: cannot write --results-dir " + old + ": read-only file, left as it is: make "
                + "it writable (chmod u+w " + old + ") or choose another path"), o.err().lines().toList());
        assertEquals("", o.out());
        assertEquals("previous", Files.readString(old));
    }

    // ---- child JVMs: their own temporary directory, a real signal ----------------------------------

    /** {@code nbench ARGS} in a child JVM whose temporary directory is {@code tmp}. */
    private static Process nbench(Path tmp, List<String> args) throws IOException {
        List<String> command = new ArrayList<>(NbenchProcess.command(List.of("-Djava.io.tmpdir=" + tmp)));
        command.addAll(args);
        return new ProcessBuilder(command).start();
    }

    static CompletableFuture<String> text(InputStream in) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "unreadable: " + e;
            }
        });
    }

    /**
     * SIGINT, unless this JVM was started with SIGINT ignored (a background job of a non-interactive shell, as
     * in some CI runners): the child inherits that, and the JVM then never sees SIGINT. SIGTERM takes the
     * same path in nbench (exit 130).
     */
    static String interruptSignal() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("SigIgn:")) {
                long ignored = Long.parseLong(line.substring("SigIgn:".length()).strip(), 16);
                return (ignored & (1L << (2 - 1))) != 0 ? "-TERM" : "-INT";
            }
        }
        return "-INT";
    }

    private static List<String> list(Path d) throws IOException {
        try (Stream<Path> files = Files.list(d)) {
            return files.map(f -> f.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void forksAreComparedAndOnlyFilesThatStayAreNamed() throws Exception {
        Path tmp = Files.createDirectory(dir.resolve("tmp"));
        Path results = dir.resolve("results");
        Process p = nbench(tmp, List.of("run", "--servers", "netty,nio", "--forks", "2", "--threads", "1", "--msgs",
                "100", "--warmup", "0", "--iterations", "2", "--quiet", "--results-dir", results.toString()));
        String out;
        CompletableFuture<String> err = text(p.getErrorStream());
        try {
            // Seven JVMs one after another (the run, two servers, four forks): the output ends when the run does.
            out = text(p.getInputStream()).get(NbenchProcess.HANG_MINUTES, TimeUnit.MINUTES);
            assertTrue(p.waitFor(NbenchProcess.HANG_MINUTES, TimeUnit.MINUTES));
        } finally {
            NbenchProcess.destroyTree(p);
        }
        assertEquals(ExitCode.OK, p.exitValue(), out + err.get());
        assertEquals("", err.get());
        assertTrue(out.contains("=== comparison of the servers (A = netty) ==="), out);
        assertTrue(out.contains("  A: server netty (2 forks)\n"), out);
        assertTrue(out.contains("throughput"), out);
        assertFalse(out.contains("nbench-run") || out.contains("nbench-forks"),
                "no file of a temporary directory is named: " + out);
        String named = out.lines().filter(l -> l.startsWith("Result documents: ")).findFirst().orElse(null);
        assertNotNull(named, out);
        List<String> files = List.of(named.substring("Result documents: ".length()).split(", "));
        assertEquals(4, files.size(), named);
        for (String f : files) {
            assertTrue(Files.isRegularFile(Path.of(f)), f + " exists after the run");
        }
        assertEquals(List.of("netty.fork1.json", "netty.fork2.json", "nio.fork1.json", "nio.fork2.json"), list(results));
        for (String f : list(results)) { // a fork too is told which server run started
            JsonNode measuredServer = ResultDocs.read(Files.readString(results.resolve(f))).at("/configuration/server");
            assertEquals(f.substring(0, f.indexOf('.')), measuredServer.path("transport").asText(), f + ": " + measuredServer);
        }
        assertEquals(List.of(), list(tmp), "no temporary directory left (nbench-run, nbench-forks)");
    }

    @Test
    void sigintStopsTheServerPrintsItsMetricsKeepsTheFilesAndRemovesTheTemporaryDirectory() throws Exception {
        Path tmp = Files.createDirectory(dir.resolve("tmp"));
        Path results = dir.resolve("results");
        Path log = dir.resolve("lat.hlog");
        Process p = nbench(tmp, List.of("run", "--servers", "netty", "--threads", "1", "--iteration-time", "500ms",
                "--warmup", "0", "--iterations", "1000", "--results-dir", results.toString(), "--hdr-log", log.toString(),
                "--verbose")); // each round's iterations: SIGINT in the middle of one
        CompletableFuture<String> err = text(p.getErrorStream());
        BufferedReader reader = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        StringBuilder out = new StringBuilder();
        String line;
        while ((line = reader.readLine()) != null) {
            out.append(line).append('\n');
            if (line.startsWith("Iteration 1/1") && out.indexOf("=== round 2/1000: server netty ===") >= 0) {
                break; // measuring in the second round, the child server running
            }
        }
        List<ProcessHandle> children = p.descendants().toList();
        assertFalse(children.isEmpty(), "the child server runs: " + out);
        assertEquals(0, new ProcessBuilder("kill", interruptSignal(), Long.toString(p.pid())).start().waitFor());
        CompletableFuture<String> rest = CompletableFuture.supplyAsync(() -> reader.lines().collect(Collectors.joining("\n")));
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "run ends after SIGINT");
        out.append(rest.get(10, TimeUnit.SECONDS));
        assertEquals(ExitCode.INTERRUPTED, p.exitValue(), out + err.get());
        assertTrue(out.toString().contains("Result: INTERRUPTED"), out.toString());
        assertTrue(out.toString().contains("server metrics after"), "the server's metrics: " + out);
        assertEquals(List.of(), list(tmp), "no nbench-run directory left");
        assertEquals(List.of("netty.json"), list(results));
        assertEquals("INTERRUPTED", ResultDocs.read(Files.readString(results.resolve("netty.json")))
                .get("status").asText());
        assertEquals(measured(results.resolve("netty.json")), measuredByTag(log).values().iterator().next(),
                "the partial log holds what the partial document holds");
        for (ProcessHandle c : children) {
            assertTrue(c.onExit().get(15, TimeUnit.SECONDS) != null && !c.isAlive(), "child " + c.pid() + " ended");
        }
    }

    /**
     * {@code kill -9} of {@code run} (no hook runs, nothing of it is left to clean up): its server and the fork
     * running end by themselves, and the scratch directory holding the monitor token goes with them. Before, the
     * servers ran on for good (parent PID 1, ports open) with their token files in the temporary directory. One
     * server: a second takes the same path, and a JVM more.
     */
    @Test
    void sigkillOfRunEndsItsServerAndItsForkAndLeavesNoTokenFile() throws Exception {
        Path tmp = Files.createDirectory(dir.resolve("tmp"));
        // One measured iteration of 5 minutes: only the kill ends this run within the test.
        Process p = nbench(tmp, List.of("run", "--servers", "nio", "--forks", "2", "--threads", "1",
                "--iteration-time", "5m", "--warmup", "0", "--iterations", "1"));
        List<ProcessHandle> children = new ArrayList<>();
        try {
            BufferedReader reader = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String out = CompletableFuture.supplyAsync(() -> {
                StringBuilder seen = new StringBuilder();
                try {
                    String line;
                    while ((line = reader.readLine()) != null) {
                        seen.append(line).append('\n');
                        if (seen.indexOf("=== fork 1/2 ===") >= 0 && line.startsWith("nbench ")
                                && line.contains(" client: ")) {
                            break; // the first fork prints its header: it runs, the server too
                        }
                    }
                } catch (IOException e) {
                    seen.append(e);
                }
                return seen.toString();
            }).get(NbenchProcess.HANG_MINUTES, TimeUnit.MINUTES);
            children.addAll(p.descendants().toList());
            assertEquals(2, children.size(), "the server and a fork run: " + out);
            List<String> scratch = list(tmp).stream().filter(f -> f.startsWith("nbench-run")).toList();
            assertEquals(1, scratch.size(), list(tmp).toString());
            assertTrue(list(tmp.resolve(scratch.get(0))).contains("nio.monitor-token"),
                    "the server's token file is written: " + list(tmp.resolve(scratch.get(0))));
            p.destroyForcibly(); // SIGKILL
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "run is killed");
            for (ProcessHandle c : children) {
                try {
                    c.onExit().get(20, TimeUnit.SECONDS);
                } catch (TimeoutException e) {
                    throw new AssertionError("child " + c.pid() + " of run (now of PID "
                            + c.parent().map(ProcessHandle::pid).orElse(-1L) + ") still runs 20 s after its run was "
                            + "killed; " + tmp + " holds " + list(tmp));
                }
            }
            assertEquals(List.of(), list(tmp), "no nbench-run directory (token files) nor nbench-forks left");
        } finally {
            NbenchProcess.destroyTree(p);
            children.forEach(ProcessHandle::destroyForcibly);
        }
    }
}
