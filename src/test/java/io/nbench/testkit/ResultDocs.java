package io.nbench.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.nbench.report.json.ResultDocument;
import io.nbench.stats.HistogramCodec;
import io.nbench.stats.LatencyHistograms;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * Reads a result document nbench produced and checks it against docs/nbench-result-1.schema.json, the
 * published JSON Schema: every test that reads a produced document reads it here, so a field the code
 * writes and the schema does not describe (or describes otherwise) fails the test that produced it.
 */
public final class ResultDocs {

    public static final Path SCHEMA_FILE = Path.of("docs", "nbench-result-1.schema.json");

    private static final JsonNode SCHEMA_NODE = load();
    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    private static final Schema SCHEMA = REGISTRY.getSchema(SCHEMA_NODE);
    /** The same file's definition of a {@code --format ndjson} interval line. */
    private static final Schema INTERVAL = REGISTRY.getSchema(intervalSchema());

    private ResultDocs() {
    }

    private static JsonNode load() {
        try (InputStream in = Files.newInputStream(SCHEMA_FILE)) {
            return ResultDocument.MAPPER.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + SCHEMA_FILE, e);
        }
    }

    private static JsonNode intervalSchema() {
        ObjectNode s = ResultDocument.MAPPER.createObjectNode();
        s.set("$schema", SCHEMA_NODE.get("$schema"));
        s.set("$defs", SCHEMA_NODE.get("$defs"));
        s.put("$ref", "#/$defs/ndjsonInterval");
        return s;
    }

    /** A {@code --format ndjson} interval line, asserted valid against the schema's {@code ndjsonInterval}. */
    public static JsonNode validInterval(JsonNode line) {
        assertEquals(List.of(), INTERVAL.validate(line).stream().map(Error::toString).toList(),
                "the ndjson interval line does not match " + SCHEMA_FILE + "#/$defs/ndjsonInterval");
        return line;
    }

    /** What the schema finds wrong in {@code doc}: empty when it is a valid nbench-result/1 document. */
    public static List<String> violations(JsonNode doc) {
        return SCHEMA.validate(doc).stream().map(Error::toString).toList();
    }

    /** The document, asserted valid against the schema. */
    public static JsonNode valid(JsonNode doc) {
        List<String> wrong = violations(doc);
        assertEquals(List.of(), wrong, "the result document does not match " + SCHEMA_FILE);
        return doc;
    }

    public static JsonNode read(String text) throws IOException {
        return valid(ResultDocument.MAPPER.readTree(text));
    }

    public static JsonNode read(File file) throws IOException {
        return valid(ResultDocument.MAPPER.readTree(file));
    }

    public static JsonNode read(Path file) throws IOException {
        return read(file.toFile());
    }

    /** Latencies in each iteration {@link #withMeasured} writes: enough that the wall time it derives from a rate
     * (a whole number of ns) gives that rate back to well within the readers' check. */
    private static final long MESSAGES = 1_000_000;

    /**
     * {@code it} given {@code histogram}, its count as {@code messages}, that throughput as {@code msgPerSec} and the
     * wall time they imply: figures the readers check against one another (compare and merge refuse a document
     * whose histogram count is not its messages, or whose rate is not messages / wallNs).
     */
    public static void consistent(ObjectNode it, double msgPerSec, Histogram histogram) {
        long messages = histogram.getTotalCount();
        it.put("messages", messages);
        if (msgPerSec > 0) {
            it.put("wallNs", Math.round(messages * 1e9 / msgPerSec));
        }
        it.put("msgPerSec", msgPerSec);
        it.put("histogram", HistogramCodec.encode(histogram));
    }

    /**
     * {@code real} (a document nbench wrote) with its first combination's measured iterations replaced by one
     * per value: that throughput, and a latency histogram holding {@code latencyNs[i]} ten times; the warmup
     * iterations kept. Still valid against the schema, so compare and report read it as any document.
     */
    public static ObjectNode withMeasured(JsonNode real, double[] msgPerSec, long[] latencyNs) {
        return withMeasured(real, 0, msgPerSec, latencyNs);
    }

    /** {@link #withMeasured(JsonNode, double[], long[])} for the combination at {@code combination}. */
    public static ObjectNode withMeasured(JsonNode real, int combination, double[] msgPerSec, long[] latencyNs) {
        ObjectNode doc = real.deepCopy();
        ArrayNode its = (ArrayNode)
                doc.path("combinations").get(combination).path("iterations");
        JsonNode template = null;
        for (int i = its.size() - 1; i >= 0; i--) {
            if (!its.get(i).path("warmup").asBoolean()) {
                template = its.remove(i);
            }
        }
        assertNotNull(template, "the document has a measured iteration to copy");
        int warmups = its.size();
        for (int i = 0; i < msgPerSec.length; i++) {
            Histogram h = LatencyHistograms.newHistogram();
            h.recordValueWithCount(latencyNs[i], MESSAGES);
            ObjectNode it = template.deepCopy();
            it.put("index", warmups + i + 1);
            consistent(it, msgPerSec[i], h);
            its.add(it);
        }
        return doc;
    }
}
