package io.nbench.report.compare;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.report.json.ResultReader;
import io.nbench.stats.HistogramCodec;
import io.nbench.stats.SteadyState;
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
        } catch (OutOfMemoryError e) {
            throw outOfMemory(path);
        }
    }

    /**
     * What compare needs of a document already read by {@link #document}: the measured iterations' latency
     * histograms decoded (a damaged one is named with its field).
     */
    public static ResultFile of(Path path, JsonNode doc) throws Unreadable {
        try {
            return decode(path, doc);
        } catch (OutOfMemoryError e) {
            throw outOfMemory(path);
        }
    }

    /**
     * The histograms {@link #of} does not decode (warmup iterations, the open loop's, the reconnects'), for the
     * readers that use them (report --merge, --html): a damaged one is one line naming its field here rather
     * than an error half way through a merge.
     */
    public static void checkOtherHistograms(Path path, JsonNode doc) throws Unreadable {
        try {
            decodeOtherHistograms(path, doc);
        } catch (OutOfMemoryError e) {
            throw outOfMemory(path);
        }
    }

    private static void decodeOtherHistograms(Path path, JsonNode doc) throws Unreadable {
        JsonNode combinations = doc.path("combinations");
        for (int c = 0; c < combinations.size(); c++) {
            JsonNode iterations = combinations.get(c).path("iterations");
            for (int i = 0; i < iterations.size(); i++) {
                JsonNode it = iterations.get(i);
                String at = "combinations[" + c + "].iterations[" + i + "].";
                for (String field : OTHER_HISTOGRAMS) {
                    if (field.equals("histogram") && !it.path("warmup").asBoolean()) {
                        continue; // decoded by of()
                    }
                    JsonNode h = it.at("/" + field.replace('.', '/'));
                    if (h.isTextual()) {
                        histogram(path, at + field, h);
                    }
                }
            }
        }
    }

    /** An iteration's histograms: the latency one (of() decodes the measured ones), the open loop's, reconnects'. */
    private static final List<String> OTHER_HISTOGRAMS = List.of("histogram", "openLoop.uncorrectedHistogram",
            "openLoop.sendLagHistogram", "connectLatency.histogram");

    /**
     * A document within the size limit whose decoded histograms (260 KB each) or tree (about ten times the
     * text) still exceed the heap: one line saying so, not a stack trace. The reading thread holds what was
     * allocated, so unwinding it frees the heap again.
     */
    private static Unreadable outOfMemory(Path path) {
        return new Unreadable(path + ": " + heapTooSmall());
    }

    /** Why a reader stopped when the documents together (a merge, a page) exceed the heap, and what to change. */
    public static String heapTooSmall() {
        return "needs more memory than this JVM's " + (Runtime.getRuntime().maxMemory() >> 20)
                + " MiB of heap: raise it (JAVA_TOOL_OPTIONS=-Xmx8g) or read fewer or smaller documents";
    }

    private static ResultFile decode(Path path, JsonNode doc) throws Unreadable {
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
                Histogram latency = histogram(path, field, it.path("histogram"));
                iterations.add(new IterationData(it.path("msgPerSec").asDouble(), latency,
                        number(it.path("resources").path("cpuPercent")),
                        serverCpu.getOrDefault(it.path("index").asInt(), Double.NaN)));
            }
            combinations.add(new CombinationData(c.path("name").asText(), keys, iterations,
                    notSteady(c.path("summary").path("steadyState"))));
        }
        return new ResultFile(path, combinations);
    }

    private static Histogram histogram(Path path, String field, JsonNode encoded) throws Unreadable {
        try {
            return HistogramCodec.decode(encoded.asText());
        } catch (IllegalArgumentException e) {
            throw new Unreadable(path + ": " + field + ": " + e.getMessage());
        }
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
}
