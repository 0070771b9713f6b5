package io.nbench.report.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nbench.load.RunListener;
import io.nbench.stats.IntervalResult;
import io.nbench.stats.Percentiles;
import io.nbench.sweep.Combination;
import java.io.PrintWriter;

/**
 * {@code --format ndjson}: one JSON object per line, flushed as it is written, so a pipe reader sees each
 * second as it ends. Interval lines have {@code "type": "interval"}; the last line is the full result
 * document (recognizable by its {@code "schema"} field).
 */
public final class NdjsonStream {

    private final PrintWriter out;

    public NdjsonStream(PrintWriter out) {
        this.out = out;
    }

    /** The listener that prints one combination's intervals. */
    public RunListener forCombination(Combination combination) {
        return new RunListener() {
            @Override
            public void onInterval(IntervalResult i) {
                line(interval(combination, i));
            }
        };
    }

    /** The figures of one interval: a line of the stream. */
    static ObjectNode interval(Combination combination, IntervalResult i) {
        ObjectNode node = ResultDocument.MAPPER.createObjectNode();
        node.put("type", "interval");
        node.put("combination", combination.name());
        node.put("iteration", i.iteration());
        node.put("warmup", i.warmup());
        node.put("startNs", i.startNanos());
        node.put("endNs", i.endNanos());
        node.put("messages", i.latency().getTotalCount());
        node.put("msgPerSec", i.messagesPerSecond());
        node.put("p50Ns", Percentiles.valueAt(i.latency(), 50));
        node.put("p99Ns", Percentiles.valueAt(i.latency(), 99));
        node.put("maxNs", Percentiles.valueAt(i.latency(), 100));
        node.put("errors", i.errors().total());
        return node;
    }

    /** The result document as the stream's last line. */
    public void last(JsonNode document) {
        line(document);
    }

    private void line(JsonNode node) {
        out.println(ResultDocument.compact(node));
        out.flush();
    }
}
