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

    @TempDir
    Path dir;

    @BeforeAll
    static void start() throws Exception {
        server = ServerProcess.start(Map.of(), "--protocol", "http", "--impl", "nio", "--port", "0", "--work", "20ms",
                "--executor-threads", "1", "--executor-queue", "1");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /** 4 x 15 responses an iteration, 1 warmup and 2 measured; 503s are errors, so every error is tolerated. */
    private NbenchProcess.Result client(String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("client", "--impl", "nio", "--url", "http://127.0.0.1:"
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
        NbenchProcess.Result r = client("--format", "csv", "--out", "csv.json");
        JsonNode doc = ResultDocs.valid(ResultDocs.read(dir.resolve("csv.json")));
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
     * MiB/s counts the request payload a message sends: a GET sends no body (without --body), so 0
     * (said on the header line, with why); a POST sends {@code --size} bytes of body. Checked in the text, the
     * document (each iteration against messages x body / wall time) and, merged by {@code report --merge}, again.
     */
    @Test
    void mibPerSecCountsTheBodiesSentNoneForAGet() throws Exception {
        NbenchProcess.Result get = client("--out", "get.json"); // --size on a GET is refused (HttpRequestBodyTest)
        assertTrue(get.out().contains("throughput counts request payload sent (none: a GET sends no body, so MiB/s "
                + "is 0; the server's responses are not counted)"), get.out());
        Matcher iteration = Pattern.compile("\\n(?:Warmup|Iteration) [^\\n]* msg/s +([\\d.,]+) MiB/s").matcher(get.out());
        int lines = 0;
        while (iteration.find()) {
            assertEquals("0.0", iteration.group(1), get.out());
            lines++;
        }
        assertEquals(3, lines, get.out());
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

    @Test
    void theTextLineSaysTheDocumentsFiguresWhichAreTheIterationsSum() throws Exception {
        NbenchProcess.Result r = client("--out", "text.json");
        JsonNode combination = ResultDocs.valid(ResultDocs.read(dir.resolve("text.json"))).path("combinations").path(0);
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
