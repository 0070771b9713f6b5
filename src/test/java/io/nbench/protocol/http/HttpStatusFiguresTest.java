package io.nbench.protocol.http;

import io.nbench.testkit.Stderr;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.testkit.CsvColumns;
import io.nbench.testkit.NbenchProcess;
import io.nbench.testkit.ResultDocs;
import io.nbench.testkit.ServerProcess;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HTTP responses by status code in every output, from the real client against a real {@code nbench server
 * --protocol http} whose pool of one thread and a queue of one rejects most requests with 503: the CSV's
 * {@code statuses} cells, the document's {@code errors.statuses} (per iteration and for the run) and the text's
 * "Responses by status" line all say the same figures.
 */
class HttpStatusFiguresTest {

    /** 4 connections against 1 thread and 1 queued request: at any moment at least two are answered 503. */
    private static ServerProcess server;
    /** The body of each 200 the server answers: 100 KiB, what a transfer rate is about. */
    private static final int RESPONSE_BODY = 100 * 1024;

    /** Shared by the cases: the runs they share are the class's (see {@link #sharedRun}). */
    @TempDir
    static Path dir;
    /**
     * The runs two cases make with the same arguments (nio with CSV, nio with text): made once, each case
     * asserting its own property on it. A child JVM each costs seconds on a busy machine.
     */
    private static final Map<List<String>, NbenchProcess.Result> RUNS = new HashMap<>();

    @BeforeAll
    static void start() throws Exception {
        server = ServerProcess.start(Map.of(), "--protocol", "http", "--impl", "nio", "--port", "0", "--work", "20ms",
                "--executor-threads", "1", "--executor-queue", "1", "--response-size", RESPONSE_BODY + "");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /** 4 x 15 responses an iteration, 1 warmup and 2 measured; 503s are errors, so every error is tolerated. */
    private NbenchProcess.Result client(String... more) throws Exception {
        return clientOf("nio", more);
    }

    /** {@code client(more)} run once for the class; {@code more} names its own --out file. */
    private static synchronized NbenchProcess.Result sharedRun(String... more) throws Exception {
        List<String> key = List.of(more);
        NbenchProcess.Result r = RUNS.get(key);
        if (r == null) {
            r = clientOf("nio", more);
            RUNS.put(key, r);
        }
        return r;
    }

    private static NbenchProcess.Result clientOf(String impl, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("client", "--impl", impl, "--url", "http://127.0.0.1:"
                + server.port + "/status", "--threads", "4", "--msgs", "15", "--warmup", "1", "--iterations", "2",
                "--max-errors", "100%"));
        args.addAll(List.of(more));
        NbenchProcess.Result r = NbenchProcess.run(dir, "022", args.toArray(new String[0]));
        assertEquals(0, r.exit(), r.all());
        assertEquals("", Stderr.withoutWarnings(r.err()));
        return r;
    }

    @Test
    void theCsvStatusCellsAreTheDocumentsAndAddUpToTheRunsAndToTheErrorColumns() throws Exception {
        NbenchProcess.Result r = sharedRun("--format", "csv", "--out", "nio-in.json");
        JsonNode doc = ResultDocs.valid(ResultDocs.read(dir.resolve("nio-in.json")));
        CsvColumns.check(r.out(), doc); // each cell against its iteration, the rows' sum against the run's

        List<List<String>> records = CsvColumns.records(r.out());
        List<String> header = records.get(0);
        Map<String, Long> run = new TreeMap<>();
        for (List<String> row : records.subList(1, records.size())) {
            Map<String, Long> byCode = CsvColumns.statusCell(row.get(header.indexOf("statuses")));
            long success = byCode.entrySet().stream().filter(e -> e.getKey().startsWith("2"))
                    .mapToLong(Map.Entry::getValue).sum();
            long other = byCode.values().stream().mapToLong(Long::longValue).sum() - success;
            // A count-based iteration ends when its 4 x 15 responses are in, whatever their status.
            assertEquals(60, success + other, String.join(",", row));
            // Every response is timed: the messages are all 60, each class's column its codes' count.
            assertEquals(Long.parseLong(row.get(header.indexOf("messages"))), success + other, "every response");
            assertEquals(Long.parseLong(row.get(header.indexOf("status_2xx"))), success, "the 2xx class");
            assertEquals(Long.parseLong(row.get(header.indexOf("status_5xx"))), other, "the 5xx class (503)");
            assertEquals(Long.parseLong(row.get(header.indexOf("errors_status"))), other, "the others: status errors");
            byCode.forEach((code, n) -> run.merge(code, n, Long::sum));
        }
        assertTrue(run.getOrDefault("200", 0L) > 0 && run.getOrDefault("503", 0L) > 0, "both kinds answered: " + run);
        assertEquals(List.of("200", "503"), List.copyOf(run.keySet()), r.out());
    }

    /**
     * The document's mibPerSec counts the request payload a message sends: a GET sends no body (without
     * --body), so 0; a POST sends {@code --size} bytes of body. (The text shows MiB/s in and out, whole
     * on the wire, which the header line says.) Checked in the text, the
     * document (each iteration against messages x body / wall time) and, merged by {@code report --merge}, again.
     */
    @Test
    void mibPerSecCountsTheBodiesSentNoneForAGet() throws Exception {
        // --size on a GET is refused (HttpRequestBodyTest)
        NbenchProcess.Result get = sharedRun("--out", "get.json");
        assertTrue(get.out().contains("MiB/s in: the responses received, out: the requests sent, whole on the wire "
                + "(status line, headers and body)"), get.out());
        JsonNode doc = ResultDocs.valid(ResultDocs.read(dir.resolve("get.json")));
        for (JsonNode it : doc.path("combinations").path(0).path("iterations")) {
            assertEquals(0.0, it.path("mibPerSec").asDouble(), it.toString());
        }
        assertEquals(0.0, doc.path("combinations").path(0).path("summary").path("throughput").path("mibPerSec").asDouble());

        NbenchProcess.Result post = client("--method", "POST", "--size", "1000", "--format", "csv", "--out", "post.json");
        JsonNode posted = ResultDocs.valid(ResultDocs.read(dir.resolve("post.json")));
        CsvColumns.check(post.out(), posted); // mib_per_s = messages x body / wall, worked out there
        for (JsonNode it : posted.path("combinations").path(0).path("iterations")) {
            assertEquals(it.path("messages").asLong() * 1e9 / it.path("wallNs").asLong() * 1000 / (1 << 20),
                    it.path("mibPerSec").asDouble(), 1e-9, it.toString());
        }

        NbenchProcess.Result merged = NbenchProcess.run(dir, "022", "report", "get.json", "get.json", "--merge",
                "--out", "merged.json");
        assertEquals(0, merged.exit(), merged.all());
        for (JsonNode it : ResultDocs.read(dir.resolve("merged.json")).path("combinations").path(0).path("iterations")) {
            assertEquals(0.0, it.path("mibPerSec").asDouble(), "merged GETs sent no body either: " + it);
        }
    }

    /**
     * MiB/s in counts every response received whole, head and body, as wrk's Transfer/sec does: each iteration's
     * {@code bytesIn} is its 200s times (head + 100 KiB body) plus its 503s times the 503's bytes, exactly, and its
     * MiB/s in (document, text line, CSV) that over its wall time; the summary's the iterations' mean. Through
     * nbench's parser (nio) and Netty's HTTP codec (netty), which hands on no response's length. Before: no
     * bytesIn at all, and every GET printed 0.0 MiB/s.
     */
    @Test
    void mibPerSecInCountsTheWholeResponsesReceived() throws Exception {
        long ok = ("HTTP/1.1 200 OK\r\nContent-Length: " + RESPONSE_BODY + "\r\n\r\n").length() + RESPONSE_BODY;
        long unavailable = HttpResponses.SERVICE_UNAVAILABLE.length;
        NbenchProcess.Result text = null;
        for (String impl : List.of("nio", "netty")) {
            boolean csv = impl.equals("nio"); // one run writes CSV, the other text: a client JVM less
            NbenchProcess.Result r = csv ? sharedRun("--format", "csv", "--out", impl + "-in.json")
                    : clientOf(impl, "--out", impl + "-in.json");
            JsonNode doc = ResultDocs.valid(ResultDocs.read(dir.resolve(impl + "-in.json")));
            if (csv) {
                CsvColumns.check(r.out(), doc); // bytes_in, mib_in_per_s, ... against the document's
            } else {
                text = r;
            }
            JsonNode combination = doc.path("combinations").path(0);
            double sum = 0;
            int measured = 0;
            for (JsonNode it : combination.path("iterations")) {
                JsonNode statuses = it.path("errors").path("statuses");
                long expected = statuses.path("200").asLong() * ok + statuses.path("503").asLong() * unavailable;
                assertEquals(expected, it.path("bytesIn").asLong(), impl + ": " + statuses + " in " + it);
                double mib = it.path("bytesIn").asLong() * 1e9 / it.path("wallNs").asLong() / (1 << 20);
                assertEquals(mib, it.path("mibInPerSec").asDouble(), mib * 0.05, impl + ": " + it);
                assertTrue(it.path("bytesOut").asLong() > 0 && it.path("bytesOut").asLong()
                        % it.path("messages").asLong() == 0, "each GET's request bytes: " + it);
                if (!it.path("warmup").asBoolean()) {
                    sum += mib;
                    measured++;
                }
            }
            double mean = sum / measured;
            assertEquals(mean, combination.path("summary").path("throughput").path("mibInPerSec").asDouble(),
                    mean * 0.05, impl + ": " + combination.path("summary"));
        }
        Matcher line = Pattern.compile("\n(?:Warmup|Iteration) [^\n]* msg/s +in +([\\d.,]+) out +([\\d.,]+) MiB/s")
                .matcher(text.out());
        int lines = 0;
        for (JsonNode it : ResultDocs.read(dir.resolve("netty-in.json")).path("combinations").path(0)
                .path("iterations")) {
            assertTrue(line.find(), text.out());
            double mib = it.path("bytesIn").asLong() * 1e9 / it.path("wallNs").asLong() / (1 << 20);
            assertEquals(mib, Double.parseDouble(line.group(1).replace(",", "")), Math.max(0.05, mib * 0.05),
                    line.group());
            lines++;
        }
        assertEquals(3, lines, text.out());
    }

    @Test
    void theTextLineSaysTheDocumentsFiguresWhichAreTheIterationsSum() throws Exception {
        NbenchProcess.Result r = sharedRun("--out", "get.json");
        JsonNode combination = ResultDocs.valid(ResultDocs.read(dir.resolve("get.json"))).path("combinations").path(0);
        Map<String, Long> iterations = new TreeMap<>();
        for (JsonNode it : combination.path("iterations")) {
            it.path("errors").path("statuses").properties()
                    .forEach(e -> iterations.merge(e.getKey(), e.getValue().asLong(), Long::sum));
        }
        Map<String, Long> document = new TreeMap<>();
        combination.path("errors").path("statuses").properties()
                .forEach(e -> document.put(e.getKey(), e.getValue().asLong()));
        assertEquals(document, iterations, "the run's statuses are its iterations' (a count-based run has no drain)");
        assertEquals(3 * 60L, document.values().stream().mapToLong(Long::longValue).sum(), document.toString());

        Matcher line = Pattern.compile("Responses by status \\(whole run\\):((?: \\d+ x[\\d,]+)+)\n").matcher(r.out());
        assertTrue(line.find(), r.out());
        Map<String, Long> text = new TreeMap<>();
        Matcher pair = Pattern.compile(" (\\d+) x([\\d,]+)").matcher(line.group(1));
        while (pair.find()) {
            text.put(pair.group(1), Long.parseLong(pair.group(2).replace(",", "")));
        }
        assertEquals(document, text, r.out());
    }
}
