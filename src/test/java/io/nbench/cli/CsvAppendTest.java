package io.nbench.cli;

import io.nbench.testkit.Stderr;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import io.nbench.client.ExitCode;
import io.nbench.protocol.Protocol;
import io.nbench.report.csv.CsvReport;
import io.nbench.report.json.ResultDocument;
import io.nbench.stats.Percentiles;
import io.nbench.testkit.NbenchProcess;
import io.nbench.testkit.ResultDocs;
import io.nbench.testkit.TestServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three different runs (closed loop, {@code --rate}, {@code --percentiles 50,99,99.99}) of the real CLI in child
 * JVMs against a real server, appended into one CSV file ({@code --no-header} after the first), read back with
 * a CSV library: every row has the header's fields, and each row's figures are those of the same run's result
 * document (joined on {@code run_id} = {@code runId}).
 */
class CsvAppendTest {

    @TempDir
    Path dir;

    @Test
    void threeDifferentRunsAppendIntoOneFileThatReadsBackWithTheirJsonFigures() throws Exception {
        String port = Integer.toString(TestServers.get("nio", Protocol.FRAMED).address().getPort());
        Path csv = dir.resolve("all.csv");
        List<String[]> runs = List.of(
                new String[] {"--msgs", "200", "--warmup", "1", "--iterations", "2"},
                new String[] {"--rate", "2000", "--iteration-time", "300ms", "--warmup", "1", "--iterations", "2"},
                new String[] {"--msgs", "200", "--warmup", "0", "--iterations", "2", "--percentiles", "50,99,99.99"});
        Map<String, JsonNode> documents = new HashMap<>();
        for (int i = 0; i < runs.size(); i++) {
            List<String> args = new ArrayList<>(List.of("client", "--port", port, "--threads", "2", "--size", "100",
                    "--format", "csv", "--out", "run" + i + ".json"));
            args.addAll(List.of(runs.get(i)));
            if (i > 0) {
                args.add("--no-header");
            }
            NbenchProcess.Result r = NbenchProcess.run(dir, "022", args.toArray(String[]::new));
            JsonNode doc = ResultDocs.read(dir.resolve("run" + i + ".json").toFile());
            if (i == 1 && r.exit() == ExitCode.FAILED) {
                rateMissedOnly(doc, r);
            } else if (i == 1 && r.exit() == ExitCode.NOTHING_MEASURED) {
                // A machine so busy that the open loop's measured iterations completed nothing: said once on
                // stderr; its CSV rows (0 messages) are still checked below.
                assertEquals("NO_DATA", doc.get("status").asText(), r.all());
                assertTrue(r.err().startsWith("nbench client: NO_DATA [") && r.err().lines().count() == 1, r.all());
            } else {
                assertEquals(0, r.exit(), r.all());
                assertEquals("", Stderr.withoutWarnings(r.err()));
            }
            Files.writeString(csv, r.out(), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            documents.put(doc.get("runId").asText(), doc);
        }
        assertEquals(3, documents.size(), "one run id per run");

        List<String[]> records = new ArrayList<>();
        CsvMapper mapper = new CsvMapper().enable(CsvParser.Feature.WRAP_AS_ARRAY);
        try (MappingIterator<String[]> it = mapper.readerFor(String[].class).readValues(csv.toFile())) {
            it.forEachRemaining(records::add);
        }
        List<String> header = List.of(records.get(0));
        assertEquals(CsvReport.columns(), header);
        List<String[]> rows = records.subList(1, records.size());
        assertEquals(3 + 3 + 2, rows.size(), "one row per iteration, warmup included");
        for (String[] row : rows) {
            assertEquals(header.size(), row.length, String.join(",", row));
        }

        Map<String, Integer> rowsPerRun = new HashMap<>();
        for (String[] cells : rows) {
            Map<String, String> row = new HashMap<>();
            for (int c = 0; c < header.size(); c++) {
                row.put(header.get(c), cells[c]);
            }
            JsonNode doc = documents.get(row.get("run_id"));
            assertTrue(doc != null, "run_id " + row.get("run_id") + " names no run");
            rowsPerRun.merge(row.get("run_id"), 1, Integer::sum);
            JsonNode combination = doc.get("combinations").get(0);
            assertEquals(combination.get("startTime").asText(), row.get("start_time"));
            assertEquals(doc.get("environment").get("host").asText(), row.get("host"));
            assertEquals(doc.get("nbench").asText(), row.get("nbench"));
            assertEquals("netty", row.get("impl"));
            assertEquals("100", row.get("size"));
            JsonNode iteration = iteration(combination, Boolean.parseBoolean(row.get("warmup")),
                    Integer.parseInt(row.get("iteration")));
            assertEquals(iteration.get("messages").asText(), row.get("messages"));
            assertEquals(iteration.get("wallNs").asText(), row.get("wall_ns"));
            JsonNode latency = iteration.get("latencyNs");
            List<String> compared = new ArrayList<>();
            for (double p : CsvReport.PERCENTILES) {
                String label = Percentiles.label(p);
                // An iteration in which no message completed (a cold open loop on a busy machine) has no latency:
                // null in the document, an empty cell in the CSV.
                boolean measured = iteration.get("messages").asLong() > 0;
                if (latency.has(label)) { // the percentiles this run asked for
                    assertEquals(measured ? latency.get(label).asText() : "", row.get(label + "_ns"), label);
                    compared.add(label);
                } else {
                    assertTrue(row.get(label + "_ns").matches(measured ? "\\d+" : ""), label + " always present: "
                            + row.get(label + "_ns"));
                }
            }
            boolean open = doc.get("configuration").get("options").get("rate").isArray()
                    ? !doc.get("configuration").get("options").get("rate").isEmpty()
                    : doc.get("configuration").get("options").get("rate").asDouble() > 0;
            if (open) {
                assertEquals(iteration.get("openLoop").get("targetRate").asDouble(),
                        Double.parseDouble(row.get("rate_target")), 0.05);
                assertTrue(!row.get("rate").isEmpty(), "the rate key");
            } else {
                assertEquals("", row.get("rate_target"));
                assertEquals("", row.get("rate_achieved"));
                assertEquals("", row.get("rate"));
            }
            if (doc.get("configuration").get("arguments").toString().contains("99.99")) {
                assertEquals(List.of("p50", "p99", "p99.99"), compared);
            }
        }
        assertEquals(List.of(3, 3, 2), documents.keySet().stream().map(rowsPerRun::get).sorted((a, b) -> b - a).toList());
    }

    /**
     * The open loop on a busy machine may miss its rate by more than 1 %: a FAIL verdict (exit 4, its one line
     * on stderr, beside the summary's warnings) that does not concern the CSV, whose rows are then checked as any other.
     */
    private static void rateMissedOnly(JsonNode doc, NbenchProcess.Result r) {
        JsonNode reasons = doc.get("combinations").get(0).get("reasons");
        assertEquals(1, reasons.size(), r.all());
        assertTrue(reasons.get(0).asText().startsWith("target rate missed"), r.all());
        assertEquals("nbench client: FAIL [" + doc.get("combinations").get(0).get("name").asText() + "]: "
                + reasons.get(0).asText() + "\n", Stderr.withoutWarnings(r.err()));
    }

    private static JsonNode iteration(JsonNode combination, boolean warmup, int index) {
        for (JsonNode i : combination.get("iterations")) {
            if (i.get("warmup").asBoolean() == warmup && i.get("index").asInt() == index) {
                return i;
            }
        }
        throw new AssertionError("no iteration " + index + " warmup=" + warmup);
    }
}
