package io.nbench.report.compare;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.report.json.HistogramCodec;
import io.nbench.report.json.ResultDocument;
import io.nbench.stats.SteadyState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/** A result document read back for {@code nbench compare}: each combination's measured iterations. */
public record ResultFile(Path path, List<CombinationData> combinations) {

    /**
     * One combination: its keys and measured iterations, and the document's steady-state warning ("not at
     * steady state: throughput rose 2.6x over 3 iterations"), or null when it found no trend or has no test.
     */
    public record CombinationData(String name, Map<String, String> keys, List<IterationData> iterations,
                                  String notSteady) {

        public CombinationData(String name, Map<String, String> keys, List<IterationData> iterations) {
            this(name, keys, iterations, null);
        }
    }

    /**
     * What compare needs of an iteration: throughput, the latency histogram (ns), and the CPU (% of one core)
     * of the client and of the server (from {@code --server-stats}); NaN when the document has none.
     */
    public record IterationData(double msgPerSec, Histogram latency, double clientCpuPercent,
                                double serverCpuPercent) {

        public IterationData(double msgPerSec, Histogram latency) {
            this(msgPerSec, latency, Double.NaN, Double.NaN);
        }
    }

    /** The file is missing, not JSON, not an nbench result, or of another schema; the message is one line. */
    public static final class Unreadable extends Exception {
        private static final long serialVersionUID = 1L;

        Unreadable(String message) {
            super(message);
        }
    }

    public static ResultFile read(Path path) throws Unreadable {
        JsonNode doc;
        try {
            doc = ResultDocument.MAPPER.readTree(Files.readAllBytes(path));
        } catch (NoSuchFileException e) {
            throw new Unreadable(path + ": no such file");
        } catch (IOException e) {
            throw new Unreadable(path + ": not a JSON document (" + firstLine(e.getMessage()) + ")");
        }
        if (doc == null || !doc.isObject()) {
            throw new Unreadable(path + ": not a JSON object");
        }
        String schema = doc.path("schema").asText(null);
        if (!ResultDocument.SCHEMA.equals(schema)) {
            throw new Unreadable(path + ": schema is " + (schema == null ? "missing" : "'" + schema + "'")
                    + ", expected '" + ResultDocument.SCHEMA + "' (written by nbench client --out or --format json)");
        }
        List<CombinationData> combinations = new ArrayList<>();
        try {
            for (JsonNode c : doc.path("combinations")) {
                Map<String, String> keys = new LinkedHashMap<>();
                c.path("keys").properties().forEach(e -> keys.put(e.getKey(), e.getValue().asText()));
                // The server's figures of a measured iteration carry its index (none: no --server-stats, or
                // stopped part way).
                Map<Integer, Double> serverCpu = new java.util.HashMap<>();
                for (JsonNode s : c.path("serverStats").path("iterations")) {
                    serverCpu.put(s.path("index").asInt(), number(s.path("cpuPercent")));
                }
                List<IterationData> iterations = new ArrayList<>();
                for (JsonNode it : c.path("iterations")) {
                    if (it.path("warmup").asBoolean(false)) {
                        continue;
                    }
                    iterations.add(new IterationData(it.path("msgPerSec").asDouble(),
                            HistogramCodec.decode(it.path("histogram").asText()),
                            number(it.path("resources").path("cpuPercent")),
                            serverCpu.getOrDefault(it.path("index").asInt(), Double.NaN)));
                }
                combinations.add(new CombinationData(c.path("name").asText(), keys, iterations,
                        notSteady(c.path("summary").path("steadyState"))));
            }
        } catch (IllegalArgumentException e) {
            throw new Unreadable(path + ": damaged iteration histogram (" + e.getMessage() + ")");
        }
        return new ResultFile(path, combinations);
    }

    /**
     * What the document's trend test said, in the client's words; null when it found no trend, or the
     * document is older than the test.
     */
    private static String notSteady(JsonNode test) {
        String trend = test.path("trend").asText("");
        if (!trend.equals(SteadyState.Trend.RISING.label()) && !trend.equals(SteadyState.Trend.FALLING.label())) {
            return null;
        }
        return "not at steady state: " + SteadyState.describe(SteadyState.Trend.valueOf(trend.toUpperCase(
                java.util.Locale.ROOT)), number(test.path("change")), test.path("n").asInt())
                + "; add --warmup or lengthen the iterations";
    }

    /** A figure that may be null or absent: NaN then. */
    private static double number(JsonNode n) {
        return n.isNumber() ? n.asDouble() : Double.NaN;
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "unreadable";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
