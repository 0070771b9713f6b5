package io.nbench.report.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nbench.load.LoadSpec;
import io.nbench.load.RunResult;
import io.nbench.report.CombinationResult;
import io.nbench.report.SweepResult;
import io.nbench.report.threshold.Threshold;
import io.nbench.resources.ResourceUsage;
import io.nbench.stats.DrainResult;
import io.nbench.stats.ErrorCounts;
import io.nbench.stats.HistogramCodec;
import io.nbench.stats.IterationResult;
import io.nbench.stats.OpenLoopFigures;
import io.nbench.stats.Percentiles;
import io.nbench.stats.SteadyState;
import io.nbench.stats.StudentT;
import io.nbench.stats.Summary;
import io.nbench.transport.ErrorKind;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The result document {@code nbench-result/1}: the one place that maps results to JSON, for {@code --out},
 * {@code --format json} and the last line of {@code --format ndjson}. The README documents every field;
 * a new figure (CPU, GC, open-loop histograms) is one more line here and one more row there. Fields are
 * only ever added within a schema version; renaming or removing one needs {@code nbench-result/2}.
 *
 * <p>Units: latencies and durations in ns, throughput in msg/s and MiB/s, times as ISO-8601 UTC.
 */
public final class ResultDocument {

    public static final String SCHEMA = "nbench-result/1";

    /** Shared and thread-safe once configured. NaN (an interval with N &lt; 2) is written as null. */
    public static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT);

    private final Map<String, String> environment;
    private final List<String> arguments;
    private final Map<String, Object> options;
    private String runId;
    private Map<String, List<JsonNode>> intervals = Map.of();

    /**
     * @param environment from {@link io.nbench.report.Environment#capture()}
     * @param arguments   the command line as given
     * @param options     every client option with its effective value (defaults included)
     */
    public ResultDocument(Map<String, String> environment, List<String> arguments, Map<String, Object> options) {
        this.environment = environment;
        this.arguments = arguments;
        this.options = options;
    }

    /**
     * Each combination's per-second figures by combination name (the {@code --format ndjson} interval lines),
     * written as {@code combinations[].intervals}; a combination without any gets none.
     */
    public ResultDocument intervals(Map<String, List<JsonNode>> byCombination) {
        this.intervals = byCombination;
        return this;
    }

    /**
     * Each combination's server figures ({@code nbench client --server-stats}) by combination name, written as
     * {@code combinations[].serverStats}; a combination without any gets none.
     */
    public ResultDocument serverStats(Map<String, ? extends JsonNode> byCombination) {
        this.serverStats = byCombination;
        return this;
    }

    private Map<String, ? extends JsonNode> serverStats = Map.of();

    /** The run's id (the CSV's {@code run_id}), written as {@code runId}; without it the field is null. */
    public ResultDocument runId(String id) {
        this.runId = id;
        return this;
    }

    public ObjectNode build(SweepResult sweep) {
        ObjectNode doc = MAPPER.createObjectNode();
        doc.put("schema", SCHEMA);
        doc.put("nbench", environment.getOrDefault("nbench", "dev"));
        doc.put("runId", runId);
        doc.put("status", sweep.status().name());
        doc.put("exitCode", sweep.exitCode());
        doc.put("error", sweep.error());
        ObjectNode env = doc.putObject("environment");
        environment.forEach(env::put);
        ObjectNode config = doc.putObject("configuration");
        config.put("target", sweep.target());
        config.set("arguments", MAPPER.valueToTree(arguments));
        config.set("options", MAPPER.valueToTree(options));
        config.set("keys", MAPPER.valueToTree(sweep.keys()));
        ArrayNode combinations = doc.putArray("combinations");
        for (CombinationResult c : sweep.combinations()) {
            combinations.add(combination(c));
        }
        // Convenience for the common single run (jq .summary.throughput.mean); null in a sweep.
        JsonNode only = sweep.combinations().size() == 1 ? combinations.get(0).get("summary") : null;
        doc.set("summary", only);
        return doc;
    }

    /** The document as text: indented for --out and --format json. */
    public static String pretty(JsonNode doc) {
        try {
            return MAPPER.writeValueAsString(doc);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize the result document", e);
        }
    }

    /** The document on one line, for --format ndjson. */
    public static String compact(JsonNode doc) {
        try {
            return MAPPER.writer().without(SerializationFeature.INDENT_OUTPUT).writeValueAsString(doc);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize the result document", e);
        }
    }

    private ObjectNode combination(CombinationResult c) {
        RunResult run = c.run();
        ObjectNode node = MAPPER.createObjectNode();
        node.put("name", c.combination().name());
        node.set("keys", MAPPER.valueToTree(c.combination().keys()));
        node.put("status", c.status().name());
        node.put("exitCode", c.exitCode());
        node.set("reasons", MAPPER.valueToTree(c.reasons()));
        ObjectNode transport = node.putObject("transport");
        transport.put("name", c.transport());
        transport.set("options", MAPPER.valueToTree(c.transportOptions()));
        transport.set("effective", MAPPER.valueToTree(c.transportConfig()));
        node.set("load", load(run.spec()));
        node.put("startTime", Instant.ofEpochMilli(run.startEpochMillis()).toString());
        node.put("aborted", run.abortReason());
        node.put("abortCause", run.abortCause() == null ? null : run.abortCause().name().toLowerCase(java.util.Locale.ROOT));
        node.put("interrupted", run.interrupted());
        ArrayNode iterations = node.putArray("iterations");
        for (IterationResult it : run.iterations()) {
            iterations.add(iteration(it, run.spec().percentiles()));
        }
        node.set("summary", summary(run.summary()));
        node.set("drain", drain(run.drain(), run.spec().percentiles()));
        ObjectNode errors = errors(run.errors());
        errors.put("lateResponses", run.lateResponses());
        errors.put("reconnects", run.reconnects());
        ObjectNode first = errors.putObject("first");
        run.firstErrors().forEach((k, v) -> first.put(k.label(), v));
        node.set("errors", errors);
        List<JsonNode> seconds = intervals.get(c.combination().name());
        if (seconds != null) {
            node.putArray("intervals").addAll(seconds);
        }
        JsonNode server = serverStats.get(c.combination().name());
        if (server != null) {
            node.set("serverStats", server);
        }
        ArrayNode thresholds = node.putArray("thresholds");
        for (Threshold.Outcome o : c.thresholds()) {
            thresholds.add(threshold(o));
        }
        return node;
    }

    /**
     * The workload as resolved, one flat object whatever groups {@link LoadSpec} has inside: record
     * components by name (a component that is itself a record contributes its own components), enums and
     * the protocol in lower case as on the command line. Flat, so the document's {@code load} keeps its
     * fields when the code regroups them.
     */
    private static ObjectNode load(LoadSpec spec) {
        ObjectNode node = MAPPER.createObjectNode();
        flatten(spec, node);
        return node;
    }

    private static void flatten(Record record, ObjectNode node) {
        for (var component : record.getClass().getRecordComponents()) {
            Object value;
            try {
                value = component.getAccessor().invoke(record);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
            if (value instanceof Record group) {
                flatten(group, node);
                continue;
            }
            if (value instanceof Enum<?> e) {
                value = e.name().toLowerCase(Locale.ROOT);
            } else if (value instanceof io.nbench.protocol.Protocol p) {
                value = p.label(); // as on the command line, as when it was an enum
            }
            node.set(component.getName(), MAPPER.valueToTree(value));
        }
    }

    /** One iteration as the document writes it (also for a merged document). */
    public static ObjectNode iteration(IterationResult it, List<Double> percentiles) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("index", it.index());
        node.put("warmup", it.warmup());
        node.put("messages", it.messages());
        node.put("wallNs", it.wallNanos());
        node.put("msgPerSec", it.messagesPerSecond());
        node.put("mibPerSec", it.mibPerSecond());
        node.set("latencyNs", percentiles(it.latency(), percentiles));
        node.set("errors", errors(it.errors()));
        node.put("clamped", it.clamped());
        node.put("partial", it.partial());
        node.put("histogram", HistogramCodec.encode(it.latency()));
        node.set("resources", resources(it));
        OpenLoopFigures o = it.openLoop();
        if (o == null) {
            node.putNull("openLoop");
        } else {
            ObjectNode open = node.putObject("openLoop");
            open.put("targetRate", o.targetRate());
            open.put("achievedRate", o.achievedRate(it.wallNanos()));
            open.put("missed", o.missed(it.wallNanos()));
            open.put("sent", o.sent());
            open.put("maxInflightHits", o.maxInflightHits());
            open.put("sendLagCaveat", OpenLoopFigures.sendLagCaveat(o.sendLag(), it.latency()));
            open.set("uncorrectedNs", percentiles(o.uncorrected(), percentiles));
            open.set("sendLagNs", percentiles(o.sendLag(), percentiles));
            open.put("uncorrectedHistogram", HistogramCodec.encode(o.uncorrected()));
            open.put("sendLagHistogram", HistogramCodec.encode(o.sendLag()));
        }
        if (it.connectLatency() == null) {
            node.putNull("connectLatency");
        } else {
            ObjectNode c = node.putObject("connectLatency");
            c.put("count", it.connectLatency().getTotalCount());
            c.set("latencyNs", percentiles(it.connectLatency(), percentiles));
            c.put("histogram", HistogramCodec.encode(it.connectLatency()));
        }
        return node;
    }

    /** What completed after a time-based run's last iteration (in no iteration); null for a count-based run. */
    private static JsonNode drain(DrainResult d, List<Double> percentiles) {
        if (d == null) {
            return MAPPER.nullNode();
        }
        ObjectNode node = MAPPER.createObjectNode();
        node.put("messages", d.messages());
        node.put("wallNs", d.wallNanos());
        node.set("latencyNs", percentiles(d.latency(), percentiles));
        node.set("errors", errors(d.errors()));
        node.put("histogram", HistogramCodec.encode(d.latency()));
        return node;
    }

    /** The client's CPU, GC and allocation and the machine's CPU during one iteration; unknown figures are null. */
    private static ObjectNode resources(IterationResult it) {
        ResourceUsage u = it.resources();
        ObjectNode node = MAPPER.createObjectNode();
        if (u == null) {
            return node;
        }
        number(node, "cpuPercent", u.cpuPercent());
        node.put("gcCount", u.gcCount());
        node.put("gcMillis", u.gcMillis());
        if (u.allocatedBytes() < 0) {
            node.putNull("allocatedBytes");
            node.putNull("allocatedPerMessage");
        } else {
            node.put("allocatedBytes", u.allocatedBytes());
            number(node, "allocatedPerMessage", it.allocatedPerMessage() < 0 ? Double.NaN : it.allocatedPerMessage());
        }
        number(node, "machineBusyPercent", u.machineBusyPercent());
        number(node, "stealPercent", u.stealPercent());
        number(node, "othersPercent", u.othersPercent());
        node.put("disturbed", u.disturbed());
        node.put("clientSaturated", u.clientSaturated());
        return node;
    }

    /** {@code {"p50": ns, ...}} of a histogram at the run's percentiles; null values when it is empty (not measured). */
    private static ObjectNode percentiles(Histogram h, List<Double> percentiles) {
        ObjectNode node = MAPPER.createObjectNode();
        for (double p : percentiles) {
            if (h.getTotalCount() == 0) {
                node.putNull(Percentiles.label(p));
            } else {
                node.put(Percentiles.label(p), Percentiles.valueAt(h, p));
            }
        }
        return node;
    }

    /** A summary as the document writes it (also for a merged document). */
    public static ObjectNode summary(Summary s) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("iterations", s.iterations());
        node.put("messages", s.messages());
        ObjectNode latency = node.putObject("latencyNs");
        latency.set("merged", percentiles(s.merged(), s.percentiles()));
        boolean any = s.latencyMeasured(); // else every latency figure is null: not measured, not 0
        if (any) {
            latency.put("min", s.merged().getMinValue());
            latency.put("max", s.merged().getMaxValue());
        } else {
            latency.putNull("min");
            latency.putNull("max");
        }
        number(latency, "mean", any ? s.merged().getMean() : Double.NaN);
        ObjectNode means = latency.putObject("meanOfIterations");
        for (double p : s.percentiles()) {
            means.set(Percentiles.label(p), interval(s.meanPercentile(p)));
        }
        ObjectNode throughput = interval(s.throughput());
        throughput.put("mibPerSec", s.mibPerSecond());
        node.set("throughput", throughput);
        node.set("steadyState", steadyState(s.steadyState()));
        node.set("errors", errors(s.errors()));
        node.set("resources", resourceSummary(s));
        Histogram uncorrected = s.mergedUncorrected();
        if (uncorrected == null) {
            node.putNull("openLoop");
        } else {
            // In the open loop latencyNs above is corrected for coordinated omission (from intended send times).
            ObjectNode open = node.putObject("openLoop");
            open.put("targetRate", s.measured().get(0).openLoop().targetRate());
            number(open, "achievedRate", s.mean(r -> r.openLoop().achievedRate(r.wallNanos())));
            open.put("rateMissedIterations", s.rateMissedIterations());
            open.put("maxInflightHits", s.measured().stream().mapToLong(r -> r.openLoop().maxInflightHits()).sum());
            // The text output's caveat: the median send lag is over 10 % of the corrected median latency.
            open.put("sendLagCaveat", OpenLoopFigures.sendLagCaveat(s.mergedSendLag(), s.merged()));
            open.set("uncorrectedNs", percentiles(uncorrected, s.percentiles()));
            open.set("sendLagNs", percentiles(s.mergedSendLag(), s.percentiles()));
        }
        return node;
    }

    /** The trend test of the measured iterations' throughput: the text summary's "not at steady state" warning. */
    private static ObjectNode steadyState(SteadyState t) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("trend", t.trend().label());
        node.put("rule", t.rule() == null ? null : t.rule().label());
        number(node, "change", t.change());
        number(node, "changeLow", t.changeLow());
        number(node, "changeHigh", t.changeHigh());
        node.put("n", t.n());
        return node;
    }

    /** Means (CPU, allocation, machine) and sums (GC) over measured iterations; flags counted. */
    private static ObjectNode resourceSummary(Summary s) {
        ObjectNode node = MAPPER.createObjectNode();
        if (s.measured().stream().anyMatch(r -> r.resources() == null)) {
            return node;
        }
        number(node, "cpuPercent", s.mean(r -> r.resources().cpuPercent()));
        node.put("gcCount", s.measured().stream().mapToLong(r -> r.resources().gcCount()).sum());
        node.put("gcMillis", s.measured().stream().mapToLong(r -> r.resources().gcMillis()).sum());
        number(node, "allocatedPerMessage", s.mean(IterationResult::allocatedPerMessage));
        number(node, "machineBusyPercent", s.mean(r -> r.resources().machineBusyPercent()));
        number(node, "stealPercent", s.mean(r -> r.resources().stealPercent()));
        number(node, "othersPercent", s.mean(r -> r.resources().othersPercent()));
        node.put("disturbedIterations", s.measured().stream().filter(r -> r.resources().disturbed()).count());
        node.put("clientSaturatedIterations", s.measured().stream().filter(r -> r.resources().clientSaturated()).count());
        return node;
    }

    /** {@code {"mean": m, "ci": halfWidth, "n": N}}: mean ± ci is the 99.9 % Student-t interval. */
    private static ObjectNode interval(StudentT.Interval i) {
        ObjectNode node = MAPPER.createObjectNode();
        number(node, "mean", i.mean());
        number(node, "ci", i.halfWidth());
        node.put("n", i.n());
        node.put("level", StudentT.LEVEL);
        return node;
    }

    private static ObjectNode errors(ErrorCounts.Snapshot e) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("total", e.total());
        for (ErrorKind k : ErrorKind.values()) {
            node.put(k.label(), e.get(k));
        }
        return node;
    }

    private static ObjectNode threshold(Threshold.Outcome o) {
        ObjectNode node = MAPPER.createObjectNode();
        Threshold t = o.threshold();
        node.put("expression", t.expression());
        node.put("metric", t.metric().name());
        node.put("operator", t.operator().symbol());
        node.put("limit", t.limit());
        number(node, "actual", o.actual());
        node.put("unit", t.metric().kind().unit());
        node.put("passed", o.passed());
        node.put("judged", o.judged());
        return node;
    }

    /** JSON has no NaN: a figure that cannot be computed is null. */
    private static void number(ObjectNode node, String field, double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            node.putNull(field);
        } else {
            node.put(field, value);
        }
    }
}
