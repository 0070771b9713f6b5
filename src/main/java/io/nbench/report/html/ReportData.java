package io.nbench.report.html;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nbench.report.json.ResultDocument;
import io.nbench.stats.HistogramCodec;
import org.HdrHistogram.Histogram;

/**
 * What the HTML page draws, computed here from result documents so the page only plots: per file and
 * combination the verdict, the summary figures, each measured iteration's throughput and percentiles, and
 * the percentile spectrum of the measured iterations merged (HdrHistogram add of the documents' own
 * histograms), corrected and, in the open loop, uncorrected. Latencies in µs.
 */
final class ReportData {

    /** Spectrum points: 10 per decade of 1/(1-q), as HdrHistogram's plots step, up to 99.9999 %. */
    private static final int STEPS_PER_DECADE = 10;
    private static final int MAX_DECADES = 6;

    private ReportData() {
    }

    /** One file's part of the page. */
    static ObjectNode file(String name, JsonNode doc) {
        ObjectNode f = ResultDocument.MAPPER.createObjectNode();
        f.put("name", name);
        f.put("status", doc.path("status").asText());
        f.put("exitCode", doc.path("exitCode").asInt());
        f.set("error", doc.path("error"));
        f.put("runId", doc.path("runId").asText(""));
        f.set("environment", doc.path("environment"));
        ObjectNode config = f.putObject("configuration");
        config.set("target", doc.path("configuration").path("target"));
        config.set("arguments", doc.path("configuration").path("arguments"));
        ArrayNode combinations = f.putArray("combinations");
        for (JsonNode c : doc.path("combinations")) {
            combinations.add(combination(c));
        }
        return f;
    }

    private static ObjectNode combination(JsonNode c) {
        ObjectNode o = ResultDocument.MAPPER.createObjectNode();
        o.put("name", c.path("name").asText());
        o.put("status", c.path("status").asText());
        o.set("reasons", c.path("reasons"));
        o.put("transport", c.path("transport").path("name").asText());
        o.set("effective", c.path("transport").path("effective"));
        o.set("load", c.path("load"));
        o.set("aborted", c.path("aborted"));
        Histogram merged = null;
        Histogram uncorrected = null;
        ArrayNode iterations = o.putArray("iterations");
        for (JsonNode it : c.path("iterations")) {
            if (it.path("warmup").asBoolean()) {
                continue;
            }
            Histogram h = HistogramCodec.decode(it.path("histogram").asText());
            merged = add(merged, h);
            JsonNode open = it.path("openLoop");
            if (open.isObject()) {
                uncorrected = add(uncorrected, HistogramCodec.decode(open.path("uncorrectedHistogram").asText()));
            }
            ObjectNode i = iterations.addObject();
            i.put("index", it.path("index").asInt());
            i.put("msgPerSec", it.path("msgPerSec").asDouble());
            i.put("partial", it.path("partial").asBoolean());
            micros(i, "p50", h, 50);
            micros(i, "p99", h, 99);
        }
        o.set("overTime", overTime(c.path("intervals")));
        JsonNode summary = c.path("summary");
        ObjectNode s = o.putObject("summary");
        s.put("messages", summary.path("messages").asLong());
        s.put("iterations", summary.path("iterations").asInt());
        s.set("throughput", summary.path("throughput").path("mean"));
        s.set("throughputCi", summary.path("throughput").path("ci"));
        s.set("mibPerSec", summary.path("throughput").path("mibPerSec"));
        s.put("errors", c.path("errors").path("total").asLong());
        if (merged != null && merged.getTotalCount() > 0) {
            micros(s, "p50", merged, 50);
            micros(s, "p99", merged, 99);
            micros(s, "p999", merged, 99.9);
            s.put("max", merged.getMaxValue() / 1000.0);
            o.set("spectrum", spectrum(merged, uncorrected));
        } else {
            o.putNull("spectrum");
        }
        return o;
    }

    /**
     * Each second of the run (warmup included), from the document's {@code intervals}: time in s at the
     * second's end, msg/s, p50, p99 and max in µs (null where nothing completed); null without intervals.
     */
    private static ObjectNode overTime(JsonNode intervals) {
        if (!intervals.isArray() || intervals.isEmpty()) {
            return null;
        }
        ObjectNode o = ResultDocument.MAPPER.createObjectNode();
        ArrayNode t = o.putArray("t");
        ArrayNode rate = o.putArray("msgPerSec");
        ArrayNode p50 = o.putArray("p50");
        ArrayNode p99 = o.putArray("p99");
        ArrayNode max = o.putArray("max");
        for (JsonNode i : intervals) {
            t.add(i.path("endNs").asLong() / 1e9);
            rate.add(i.path("msgPerSec").asDouble());
            for (var pair : java.util.List.of(java.util.Map.entry(p50, "p50Ns"), java.util.Map.entry(p99, "p99Ns"),
                    java.util.Map.entry(max, "maxNs"))) {
                JsonNode v = i.path(pair.getValue());
                if (v.isNumber()) {
                    pair.getKey().add(v.asLong() / 1000.0);
                } else {
                    pair.getKey().addNull();
                }
            }
        }
        return o;
    }

    private static Histogram add(Histogram sum, Histogram h) {
        if (sum == null) {
            sum = new Histogram(h.getNumberOfSignificantValueDigits());
        }
        sum.add(h);
        return sum;
    }

    private static void micros(ObjectNode node, String field, Histogram h, double percentile) {
        if (h.getTotalCount() == 0) {
            node.putNull(field);
        } else {
            node.put(field, h.getValueAtPercentile(percentile) / 1000.0);
        }
    }

    /**
     * x = 1/(1-q) on a log axis (2 = the median, 100 = p99, 1000 = p99.9), as HdrHistogram's plotter draws a
     * percentile distribution; points stop where fewer than one value lies beyond them, and the maximum
     * closes the series.
     */
    static ObjectNode spectrum(Histogram corrected, Histogram uncorrected) {
        ObjectNode s = ResultDocument.MAPPER.createObjectNode();
        ArrayNode x = s.putArray("x");
        ArrayNode y = s.putArray("corrected");
        ArrayNode u = uncorrected == null ? null : s.putArray("uncorrected");
        long n = corrected.getTotalCount();
        for (int k = 0; k <= STEPS_PER_DECADE * MAX_DECADES; k++) {
            double inverse = Math.pow(10, (double) k / STEPS_PER_DECADE);
            if (inverse > n) {
                break;
            }
            double q = 100.0 * (1 - 1 / inverse);
            x.add(inverse);
            y.add(corrected.getValueAtPercentile(q) / 1000.0);
            if (u != null) {
                u.add(uncorrected.getValueAtPercentile(q) / 1000.0);
            }
        }
        s.put("max", corrected.getMaxValue() / 1000.0);
        if (u != null) {
            s.put("uncorrectedMax", uncorrected.getMaxValue() / 1000.0);
        }
        return s;
    }
}
