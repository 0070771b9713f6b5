package io.nbench.report.compare;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.report.json.HistogramCodec;
import io.nbench.report.json.ResultReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/** A result document read back for {@code nbench compare}: each combination's measured iterations. */
public record ResultFile(Path path, List<CombinationData> combinations) {

    /** One combination: its keys and measured iterations. */
    public record CombinationData(String name, Map<String, String> keys, List<IterationData> iterations) {
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

    /**
     * The file is missing, beyond the size limit, not JSON, not a valid nbench-result/1 document, or holds a
     * damaged histogram; the message is one line naming the file and the field.
     */
    public static final class Unreadable extends Exception {
        private static final long serialVersionUID = 1L;

        Unreadable(String message) {
            super(message);
        }
    }

    /** The document at {@code path}, read within the default limit ({@link ResultReader#DEFAULT_MAX_BYTES}). */
    public static ResultFile read(Path path) throws Unreadable {
        return read(path, ResultReader.DEFAULT_MAX_BYTES);
    }

    /** The document at {@code path}, read within {@code maxBytes} and valid against the schema. */
    public static ResultFile read(Path path, long maxBytes) throws Unreadable {
        return of(path, document(path, maxBytes));
    }

    /** The document itself, for the readers that need more of it (report): bounded and valid, as {@link #read}. */
    public static JsonNode document(Path path, long maxBytes) throws Unreadable {
        try {
            return ResultReader.read(path, maxBytes);
        } catch (ResultReader.Unreadable e) {
            throw new Unreadable(e.getMessage());
        }
    }

    /** What compare needs of a document already read by {@link #document}: every histogram decoded. */
    public static ResultFile of(Path path, JsonNode doc) throws Unreadable {
        List<CombinationData> combinations = new ArrayList<>();
        JsonNode all = doc.path("combinations");
        for (int ci = 0; ci < all.size(); ci++) {
            JsonNode c = all.get(ci);
            Map<String, String> keys = new LinkedHashMap<>();
            c.path("keys").properties().forEach(e -> keys.put(e.getKey(), e.getValue().asText()));
            // The server's figures of a measured iteration carry its index (none: no --server-stats, or
            // stopped part way).
            Map<Integer, Double> serverCpu = new java.util.HashMap<>();
            for (JsonNode s : c.path("serverStats").path("iterations")) {
                serverCpu.put(s.path("index").asInt(), number(s.path("cpuPercent")));
            }
            List<IterationData> iterations = new ArrayList<>();
            JsonNode its = c.path("iterations");
            for (int i = 0; i < its.size(); i++) {
                JsonNode it = its.get(i);
                if (it.path("warmup").asBoolean(false)) {
                    continue;
                }
                String field = "combinations[" + ci + "].iterations[" + i + "].histogram";
                iterations.add(new IterationData(it.path("msgPerSec").asDouble(), histogram(path, field, it),
                        number(it.path("resources").path("cpuPercent")),
                        serverCpu.getOrDefault(it.path("index").asInt(), Double.NaN)));
            }
            combinations.add(new CombinationData(c.path("name").asText(), keys, iterations));
        }
        return new ResultFile(path, combinations);
    }

    private static Histogram histogram(Path path, String field, JsonNode iteration) throws Unreadable {
        try {
            return HistogramCodec.decodePacked(iteration.path("histogram").asText());
        } catch (IllegalArgumentException e) {
            throw new Unreadable(path + ": " + field + ": " + e.getMessage());
        }
    }

    /** A figure that may be null or absent: NaN then. */
    private static double number(JsonNode n) {
        return n.isNumber() ? n.asDouble() : Double.NaN;
    }
}
