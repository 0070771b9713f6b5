package io.nbench.report.csv;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nbench.report.Environment;
import io.nbench.report.MeasuredServer;
import io.nbench.report.json.ResultDocument;
import io.nbench.resources.ResourceUsage;
import io.nbench.stats.ErrorCounts;
import io.nbench.stats.IterationResult;
import io.nbench.stats.LatencyHistograms;
import io.nbench.stats.OpenLoopFigures;
import io.nbench.stats.Percentiles;
import io.nbench.sweep.Combination;
import io.nbench.testkit.CsvColumns;
import io.nbench.transport.ErrorKind;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/**
 * Every CSV column against the result document's field for the same iteration ({@link CsvColumns}), on
 * iterations whose every figure differs from every other (GC count 3, GC time 41 ms, clamped 7 then 2,
 * each error kind its own count), so a column that prints the wrong field, or a running total, shows. The
 * real client's rows are checked the same way by {@code FiguresAgreeTest}; a real run gives no clamped
 * value and often no collection, which these iterations have.
 */
class CsvAgreesWithDocumentTest {

    private static final List<Double> PERCENTILES = List.of(25.0, 50.0, 75.0, 90.0, 95.0, 99.0, 99.9, 99.99, 100.0);

    private static Histogram histogram(long first, int count) {
        Histogram h = LatencyHistograms.newHistogram();
        for (int i = 0; i < count; i++) {
            h.recordValue(first + 37L * i * i);
        }
        return h;
    }

    private static ErrorCounts.Snapshot errors(long base) {
        long[] v = new long[ErrorKind.values().length];
        for (int k = 0; k < v.length; k++) {
            v[k] = base + k * 2 + 1;
        }
        return new ErrorCounts.Snapshot(v);
    }

    /** An open-loop iteration at 1,000 msg/s over 2 s, whose figures are all distinct. */
    private static IterationResult open(int index, boolean warmup, long clamped, long gcCount, long gcMillis) {
        Histogram latency = histogram(5_000 + index, 1_980);
        return new IterationResult(index, warmup, 1_980, 2_003_000_000L, 300, latency, errors(index), clamped, !warmup,
                new ResourceUsage(12.5 + index, gcCount, gcMillis, 123_456 + index, 50.0, 2.5 + index, 20.0),
                new OpenLoopFigures(1_000, 1_990, 5, histogram(4_000, 1_980), histogram(900, 1_990)), null);
    }

    /** A closed-loop iteration whose resources were not measured: those cells are empty. */
    private static IterationResult closed(int index) {
        return new IterationResult(index, false, 700, 1_500_000_000L, 64, histogram(2_000, 700), ErrorCounts.Snapshot.ZERO,
                0, false, ResourceUsage.UNKNOWN, null, null);
    }

    @Test
    void everyColumnOfEveryRowIsTheDocumentsField() {
        StringWriter csv = new StringWriter();
        // The server measured is not the client's transport (the rows' impl): nio, learned from its monitor
        MeasuredServer server = new MeasuredServer("nio", "framed", "10.0.0.9:7000",
                MeasuredServer.Source.MONITOR);
        CsvReport report = new CsvReport(new PrintWriter(csv), List.of("impl", "size", "rate", "netty.io"), "run-7",
                "host-a", server);
        report.header();
        ObjectNode doc = ResultDocument.MAPPER.createObjectNode();
        doc.put("runId", "run-7");
        doc.put("nbench", Environment.version());
        doc.putObject("environment").put("host", "host-a");
        ObjectNode configuration = ResultDocument.MAPPER.createObjectNode().put("target", "10.0.0.9:7000");
        configuration.putObject("server").put("transport", "nio").put("protocol", "framed")
                .put("address", "10.0.0.9:7000").put("source", "monitor");
        doc.set("configuration", configuration
                .set("keys", ResultDocument.MAPPER.valueToTree(List.of("impl", "size", "rate", "netty.io"))));
        ArrayNode combinations = doc.putArray("combinations");

        Map<String, String> openKeys = new LinkedHashMap<>(Map.of("impl", "netty", "size", "300", "rate", "1000",
                "netty.io", "epoll"));
        combinations.add(rows(report, new Combination(openKeys), 1_700_000_000_000L,
                List.of(open(1, true, 7, 3, 41), open(1, false, 2, 5, 17), open(2, false, 0, 0, 0)), 300, 1_000));
        Map<String, String> closedKeys = new LinkedHashMap<>(Map.of("impl", "mina", "size", "64"));
        combinations.add(rows(report, new Combination(closedKeys), 1_700_000_100_000L, List.of(closed(1), closed(2)), 64, 0));

        CsvColumns.check(csv.toString(), doc);
    }

    /** Prints the iterations' rows and returns the combination as the document writes it. */
    private static ObjectNode rows(CsvReport report, Combination combination, long startMillis,
                                   List<IterationResult> iterations, int size, double rate) {
        int measured = (int) iterations.stream().filter(it -> !it.warmup()).count();
        CsvReport.Rows listener = report.forCombination(combination, measured);
        listener.onStarted(startMillis);
        ObjectNode c = ResultDocument.MAPPER.createObjectNode();
        c.put("name", combination.name());
        c.set("keys", ResultDocument.MAPPER.valueToTree(combination.keys()));
        c.putObject("transport").put("name", combination.get("impl"));
        c.putObject("load").put("size", size).put("rate", rate);
        c.put("startTime", Instant.ofEpochMilli(startMillis).toString());
        c.putObject("errors").put("reconnects", 0);
        ArrayNode its = c.putArray("iterations");
        for (IterationResult it : iterations) {
            listener.onIteration(it);
            its.add(ResultDocument.iteration(it, PERCENTILES));
        }
        // The last measured row carries the summary's warnings (one with a comma and a quote: RFC 4180 quoting).
        List<String> warnings = rate > 0 ? List.of("not at steady state: \"rose\" 7.0x, say", "a second one") : List.of();
        listener.finish("", warnings); // no curve: no step's cause
        ArrayNode w = c.putObject("summary").putArray("warnings");
        warnings.forEach(w::add);
        return c;
    }

    @Test
    void theCsvsPercentilesAreAllInTheCheckedSet() {
        // The columns CsvColumns resolves by pattern are checked against these, all present in the document above.
        Assertions.assertEquals(CsvReport.PERCENTILES, PERCENTILES);
        Assertions.assertTrue(PERCENTILES.containsAll(Percentiles.DEFAULT));
    }
}
