package io.nbench.report.html;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nbench.protocol.SuccessStatuses;
import io.nbench.report.json.AsRead;
import io.nbench.report.json.CapacityDoc;
import io.nbench.report.json.CombinationDoc;
import io.nbench.report.json.CurveDoc;
import io.nbench.report.json.IntervalDoc;
import io.nbench.report.json.IterationDoc;
import io.nbench.report.json.ResultDoc;
import io.nbench.report.json.ResultDocument;
import io.nbench.report.json.SummaryDoc;
import io.nbench.report.threshold.MetricKind;
import io.nbench.report.threshold.Threshold;
import io.nbench.stats.HistogramCodec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

    /**
     * One file's part of the page.
     *
     * @param asRead the document was read by {@link io.nbench.report.json.ResultReader}: the figures copied from it
     *               print as that reader's decimals ({@link AsRead}); else as computed doubles
     */
    static ObjectNode file(String name, ResultDoc doc, boolean asRead) {
        ObjectNode f = ResultDocument.MAPPER.createObjectNode();
        f.put("name", name);
        f.put("status", doc.status().name());
        f.put("exitCode", doc.exitCode());
        f.put("error", doc.error());
        f.put("runId", doc.runId() == null ? "" : doc.runId());
        f.set("environment", ResultDocument.MAPPER.valueToTree(doc.environment()));
        ObjectNode config = f.putObject("configuration");
        config.put("target", doc.configuration().target());
        config.set("arguments", ResultDocument.MAPPER.valueToTree(doc.configuration().arguments()));
        ArrayNode combinations = f.putArray("combinations");
        for (CombinationDoc c : doc.combinations()) {
            combinations.add(combination(c, asRead));
        }
        f.set("capacity", capacity(doc.capacity()));
        f.set("curve", curve(doc));
        return f;
    }

    /**
     * The curve of latency against load (a search's or a rate sweep's) for the hockey-stick chart: each point's
     * rates, p50 and p99 in µs and whether it is the knee, and the latency objectives drawn as lines (a search's
     * {@code --slo}, a sweep's latency {@code --threshold}s); null without a curve.
     */
    private static ObjectNode curve(ResultDoc doc) {
        if (doc.curve() == null) {
            return null;
        }
        ObjectNode o = ResultDocument.MAPPER.createObjectNode();
        ArrayNode points = o.putArray("points");
        for (CurveDoc.Point p : doc.curve().points()) {
            points.addObject().put("combination", p.combination()).put("offeredRate", p.offeredRate())
                    .put("achievedRate", p.achievedRate()).put("p50", micros(p.p50())).put("p99", micros(p.p99()))
                    .put("cause", p.cause()).put("knee", p.knee());
        }
        List<String> objectives = doc.capacity() != null ? List.of(doc.capacity().objective().split(" and "))
                : doc.combinations().isEmpty() ? List.of()
                : doc.combinations().get(0).thresholds().stream().map(t -> t.expression()).toList();
        o.set("limits", limits(objectives));
        return o;
    }

    private static Double micros(Long nanos) {
        return nanos == null ? null : nanos / 1000.0;
    }

    /**
     * A capacity search for the chart of latency against rate (the knee): its steps (each a combination, whose
     * figures the page looks up by name), the answer, and each latency objective's limit in µs, drawn as a line;
     * null without a search.
     */
    private static ObjectNode capacity(CapacityDoc c) {
        if (c == null) {
            return null;
        }
        ObjectNode o = ResultDocument.MAPPER.createObjectNode();
        o.put("objective", c.objective());
        o.put("outcome", c.outcome());
        o.put("passed", c.passed());
        o.put("failed", c.failed());
        ArrayNode steps = o.putArray("steps");
        for (CapacityDoc.Step s : c.steps()) {
            steps.addObject().put("combination", s.combination()).put("targetRate", s.targetRate())
                    .put("achievedRate", s.achievedRate()).put("passed", s.passed());
        }
        o.set("limits", limits(List.of(c.objective().split(" and "))));
        return o;
    }

    /** Each latency objective among these expressions and its limit in µs, drawn as a line. */
    private static ArrayNode limits(List<String> expressions) {
        ArrayNode limits = ResultDocument.MAPPER.createArrayNode();
        for (String expression : expressions) {
            try {
                Threshold t = Threshold.parse(expression, "--slo");
                if (t.metric().kind() == MetricKind.LATENCY) {
                    limits.addObject().put("expression", expression).put("limit", t.limit() / 1000.0);
                }
            } catch (IllegalArgumentException e) {
                // Not the grammar this nbench reads (a document from another version): no line for it.
            }
        }
        return limits;
    }

    private static ObjectNode combination(CombinationDoc c, boolean asRead) {
        ObjectNode o = ResultDocument.MAPPER.createObjectNode();
        o.put("name", c.name());
        o.put("status", c.status().name());
        o.set("reasons", ResultDocument.MAPPER.valueToTree(c.reasons()));
        o.put("transport", c.transport().name());
        o.set("effective", ResultDocument.MAPPER.valueToTree(c.transport().effective()));
        o.set("load", c.load().fields());
        o.put("aborted", c.aborted());
        Histogram merged = null;
        Histogram uncorrected = null;
        // HTTP: the measured responses' latency by status class, each class's histograms added up
        Map<String, Histogram> byClass = new LinkedHashMap<>();
        ArrayNode iterations = o.putArray("iterations");
        for (IterationDoc it : c.iterations()) {
            if (it.warmup()) {
                continue;
            }
            Histogram h = HistogramCodec.decode(it.histogram());
            merged = add(merged, h);
            if (it.openLoop() != null) {
                uncorrected = add(uncorrected, HistogramCodec.decode(it.openLoop().uncorrectedHistogram()));
            }
            if (it.latencyByStatusClass() != null) {
                it.latencyByStatusClass().forEach((cls, l) -> {
                    if (l != null) {
                        byClass.merge(cls, HistogramCodec.decode(l.histogram()), ReportData::add);
                    }
                });
            }
            ObjectNode i = iterations.addObject();
            i.put("index", it.index());
            i.put("messages", it.messages());
            i.put("errors", it.errors() == null ? 0 : it.errors().total());
            i.put("msgPerSec", it.msgPerSec());
            // Null when unknown; 0 when the iteration's work took less than the OS's CPU clock tick.
            i.put("cpuPercent", it.resources() == null ? null : it.resources().cpuPercent());
            i.put("partial", it.partial());
            micros(i, "p50", h, 50);
            micros(i, "p99", h, 99);
        }
        o.set("overTime", overTime(c.intervals()));
        SummaryDoc summary = c.summary();
        ObjectNode s = o.putObject("summary");
        s.put("messages", summary.messages());
        s.put("iterations", summary.iterations());
        AsRead.put(s, "throughput", summary.throughput().mean(), asRead);
        AsRead.put(s, "throughputCi", summary.throughput().ci(), asRead);
        AsRead.put(s, "mibPerSec", summary.throughput().mibPerSec(), asRead);
        s.put("errors", c.errors().counts().total());
        if (!c.errors().statuses().isEmpty()) { // HTTP: the page shows the responses by code beside the errors
            ObjectNode statuses = o.putObject("statuses");
            c.errors().statuses().forEach(statuses::put);
            // The codes that are not a success by the run's --success-status, marked as errors on the page.
            SuccessStatuses success = c.load().successStatuses();
            ArrayNode failed = o.putArray("failedStatuses");
            // "other" (0): a status line nbench could not read, never a success.
            c.errors().statuses().keySet().stream().mapToInt(Integer::parseInt).filter(code -> !success.test(code))
                    .forEach(failed::add);
        }
        if (!byClass.isEmpty()) { // HTTP: one row per status class seen, with its count and percentiles
            ArrayNode classes = o.putArray("statusClasses");
            byClass.forEach((cls, h) -> {
                if (h.getTotalCount() > 0) {
                    ObjectNode row = classes.addObject();
                    row.put("class", cls);
                    row.put("responses", h.getTotalCount());
                    micros(row, "p50", h, 50);
                    micros(row, "p99", h, 99);
                    row.put("max", h.getMaxValue() / 1000.0);
                }
            });
        }
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
    private static ObjectNode overTime(List<IntervalDoc> intervals) {
        if (intervals == null || intervals.isEmpty()) {
            return null;
        }
        ObjectNode o = ResultDocument.MAPPER.createObjectNode();
        ArrayNode t = o.putArray("t");
        ArrayNode rate = o.putArray("msgPerSec");
        ArrayNode p50 = o.putArray("p50");
        ArrayNode p99 = o.putArray("p99");
        ArrayNode max = o.putArray("max");
        for (IntervalDoc i : intervals) {
            t.add(i.endNs() / 1e9);
            rate.add(i.msgPerSec());
            micros(p50, i.p50Ns());
            micros(p99, i.p99Ns());
            micros(max, i.maxNs());
        }
        return o;
    }

    private static void micros(ArrayNode series, Long nanos) {
        if (nanos == null) {
            series.addNull();
        } else {
            series.add(nanos / 1000.0);
        }
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
