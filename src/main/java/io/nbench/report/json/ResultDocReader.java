package io.nbench.report.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nbench.report.MeasuredServer;
import io.nbench.report.Status;
import io.nbench.stats.ErrorCounts;
import io.nbench.transport.ErrorKind;
import io.nbench.transport.TlsSession;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The one reader of result documents: a tree {@link ResultReader} parsed and validated against the schema, as
 * {@link ResultDoc}. Every string key of the schema that a reader of nbench needs is here; a field this nbench
 * does not know (a newer writer's) is ignored, and one an older writer did not write reads as its record's
 * absent value (null, 0, false, empty), as the readers read it before they had types.
 */
public final class ResultDocReader {

    private ResultDocReader() {
    }

    public static ResultDoc document(JsonNode d) {
        List<CombinationDoc> combinations = new ArrayList<>();
        d.path("combinations").forEach(c -> combinations.add(combination(c)));
        List<ResultDoc.Source> sources = null;
        if (d.path("sources").isArray()) {
            sources = new ArrayList<>();
            for (JsonNode s : d.path("sources")) {
                sources.add(new ResultDoc.Source(text(s.path("file")), text(s.path("runId")), text(s.path("host")),
                        status(s.path("status"))));
            }
        }
        JsonNode config = d.path("configuration");
        return new ResultDoc(text(d.path("nbench")), text(d.path("runId")), status(d.path("status")),
                d.path("exitCode").asInt(), text(d.path("error")), strings(d.path("environment")),
                new ConfigurationDoc(text(config.path("target")), list(config.path("arguments")),
                        object(config.path("options")), list(config.path("keys")), server(config.path("server"))),
                combinations, sources, capacity(d.path("capacity")),
                curve(d.path("capacity").has("curve") ? d.path("capacity").path("curve") : d.path("curve")));
    }

    /** {@code configuration.server}, or null: not known (or a document written before the field). */
    private static MeasuredServer server(JsonNode s) {
        if (!s.isObject()) {
            return null;
        }
        return new MeasuredServer(text(s.path("transport")), text(s.path("protocol")),
                text(s.path("address")), MeasuredServer.Source.parse(text(s.path("source"))));
    }

    /** A curve of latency against load, or null: the document has none. */
    private static CurveDoc curve(JsonNode c) {
        if (!c.isArray()) {
            return null;
        }
        List<CurveDoc.Point> points = new ArrayList<>();
        for (JsonNode p : c) {
            points.add(new CurveDoc.Point(text(p.path("combination")), p.path("offeredRate").asDouble(),
                    number(p.path("achievedRate")), number(p.path("answeredRate")), nanos(p.path("p50")),
                    nanos(p.path("p99")), nanos(p.path("p999")), p.path("errors").asLong(), text(p.path("cause")),
                    p.path("knee").asBoolean()));
        }
        return new CurveDoc(points);
    }

    private static Long nanos(JsonNode n) {
        return n.isNumber() ? n.asLong() : null;
    }

    /** A capacity search, or null: the document has none. */
    private static CapacityDoc capacity(JsonNode c) {
        if (!c.isObject()) {
            return null;
        }
        List<CapacityDoc.Step> steps = new ArrayList<>();
        for (JsonNode s : c.path("steps")) {
            steps.add(new CapacityDoc.Step(text(s.path("combination")), s.path("targetRate").asDouble(),
                    number(s.path("achievedRate")), number(s.path("answeredRate")), s.path("passed").asBoolean(),
                    s.path("nearBoundary").asBoolean(),
                    s.path("decided").isBoolean() ? s.path("decided").asBoolean() : null, text(s.path("cause")),
                    s.path("confirming").asBoolean()));
        }
        return new CapacityDoc(text(c.path("objective")), c.path("resolution").asDouble(), number(c.path("firstGuess")),
                text(c.path("outcome")), number(c.path("passed")), number(c.path("failed")), steps,
                number(c.path("clientLimit")), spread(c.path("spread").path("passed")),
                spread(c.path("spread").path("failed")));
    }

    /** The runs at one end of a bracket, or null: none, or a document written before the spread. */
    private static CapacityDoc.Spread spread(JsonNode s) {
        return s.isObject() ? new CapacityDoc.Spread(s.path("runs").asInt(), s.path("passes").asInt(),
                number(s.path("answeredMin")), number(s.path("answeredMax"))) : null;
    }

    static CombinationDoc combination(JsonNode c) {
        JsonNode transport = c.path("transport");
        List<IterationDoc> iterations = new ArrayList<>();
        c.path("iterations").forEach(i -> iterations.add(iteration(i)));
        JsonNode errors = c.path("errors");
        List<IntervalDoc> intervals = null;
        if (c.path("intervals").isArray()) {
            intervals = new ArrayList<>();
            for (JsonNode i : c.path("intervals")) {
                intervals.add(interval(i));
            }
        }
        List<ThresholdDoc> thresholds = new ArrayList<>();
        for (JsonNode t : c.path("thresholds")) {
            thresholds.add(new ThresholdDoc(text(t.path("expression")), text(t.path("metric")),
                    text(t.path("operator")), t.path("limit").asDouble(), number(t.path("actual")), text(t.path("unit")),
                    t.path("passed").asBoolean(), t.path("judged").asBoolean()));
        }
        List<CombinationDoc.Host> hosts = null;
        if (c.path("hosts").isArray()) {
            hosts = new ArrayList<>();
            for (JsonNode h : c.path("hosts")) {
                hosts.add(new CombinationDoc.Host(text(h.path("file")), text(h.path("host")), h.path("messages").asLong(),
                        number(h.path("throughput")), resourceSummary(h.path("resources"))));
            }
        }
        return new CombinationDoc(text(c.path("name")), strings(c.path("keys")), status(c.path("status")),
                c.path("exitCode").asInt(), list(c.path("reasons")),
                new CombinationDoc.Transport(text(transport.path("name")), strings(transport.path("options")),
                        strings(transport.path("effective")), tls(transport.path("tls"))),
                new LoadDoc(object(c.path("load"))), text(c.path("startTime")), text(c.path("aborted")),
                text(c.path("abortCause")), c.path("interrupted").asBoolean(), iterations,
                summary(c.path("summary")), drain(c.path("drain")),
                new CombinationDoc.RunErrors(errors(errors), errors.path("lateResponses").asLong(),
                        errors.path("reconnects").asLong(), strings(errors.path("first")),
                        counts(errors.path("statuses"))),
                intervals, serverStats(c.path("serverStats")), thresholds, hosts);
    }

    private static IterationDoc.ConnectLatency connectLatency(JsonNode c) {
        return !c.isObject() ? null : new IterationDoc.ConnectLatency(c.path("count").asLong(),
                percentiles(c.path("latencyNs")), text(c.path("histogram")),
                c.path("resumed").isNumber() ? c.path("resumed").asLong() : null);
    }

    static IterationDoc iteration(JsonNode it) {
        JsonNode o = it.path("openLoop");
        IterationDoc.OpenLoop open = !o.isObject() ? null : new IterationDoc.OpenLoop(o.path("targetRate").asDouble(),
                o.path("achievedRate").asDouble(), o.path("missed").asBoolean(), o.path("sent").asLong(),
                o.path("maxInflightHits").asLong(), o.path("sendLagCaveat").asBoolean(),
                percentiles(o.path("uncorrectedNs")), percentiles(o.path("sendLagNs")),
                text(o.path("uncorrectedHistogram")), text(o.path("sendLagHistogram")));
        IterationDoc.ConnectLatency connect = connectLatency(it.path("connectLatency"));
        IterationDoc.ConnectLatency handshake = connectLatency(it.path("handshakeLatency"));
        JsonNode r = it.path("resources");
        IterationDoc.Resources resources = !r.isObject() || r.isEmpty() ? null : new IterationDoc.Resources(
                number(r.path("cpuPercent")), r.path("gcCount").asLong(), r.path("gcMillis").asLong(),
                r.path("allocatedBytes").isNumber() ? r.path("allocatedBytes").asLong() : null,
                number(r.path("allocatedPerMessage")), number(r.path("machineBusyPercent")),
                number(r.path("stealPercent")), number(r.path("othersPercent")), r.path("disturbed").asBoolean(),
                r.path("clientSaturated").asBoolean());
        return new IterationDoc(it.path("index").asInt(), it.path("warmup").asBoolean(), it.path("messages").asLong(),
                it.path("wallNs").asLong(), it.path("msgPerSec").asDouble(), it.path("mibPerSec").asDouble(),
                percentiles(it.path("latencyNs")), errors(it.path("errors")), it.path("clamped").asLong(),
                it.path("partial").asBoolean(), text(it.path("histogram")), resources, open, connect,
                handshake, statusClasses(it.path("latencyByStatusClass")), transfer(it),
                it.path("openingHandshakes").asLong());
    }

    /** The bytes in and out; null when absent (a document written before they were counted). */
    private static IterationDoc.Transfer transfer(JsonNode it) {
        return !it.path("bytesIn").isNumber() ? null : new IterationDoc.Transfer(it.path("bytesIn").asLong(),
                it.path("bytesOut").asLong(), it.path("mibInPerSec").asDouble(), it.path("mibOutPerSec").asDouble());
    }

    /** HTTP: the latency by status class, in the document's order; null when absent (other protocols). */
    private static Map<String, IterationDoc.ConnectLatency> statusClasses(JsonNode n) {
        if (!n.isObject()) {
            return null;
        }
        Map<String, IterationDoc.ConnectLatency> m = new LinkedHashMap<>();
        n.properties().forEach(e -> m.put(e.getKey(), connectLatency(e.getValue())));
        return m;
    }

    /** One second's figures, as a {@code --format ndjson} interval line and an element of {@code intervals} hold them. */
    public static IntervalDoc interval(JsonNode i) {
        return new IntervalDoc(text(i.path("combination")), i.path("iteration").asInt(), i.path("warmup").asBoolean(),
                i.path("startNs").asLong(), i.path("endNs").asLong(), i.path("messages").asLong(),
                i.path("msgPerSec").asDouble(), longOrNull(i.path("p50Ns")), longOrNull(i.path("p99Ns")),
                longOrNull(i.path("maxNs")), i.path("errors").asLong(), number(i.path("cpuPercent")),
                number(i.path("stealPercent")), i.path("gcCount").asLong(), i.path("gcMillis").asLong());
    }

    private static DrainDoc drain(JsonNode d) {
        return !d.isObject() ? null : new DrainDoc(d.path("messages").asLong(), d.path("wallNs").asLong(),
                percentiles(d.path("latencyNs")), errors(d.path("errors")), text(d.path("histogram")));
    }

    static SummaryDoc summary(JsonNode s) {
        JsonNode latency = s.path("latencyNs");
        Map<String, SummaryDoc.Mean> means = new LinkedHashMap<>();
        latency.path("meanOfIterations").properties().forEach(e -> means.put(e.getKey(), mean(e.getValue())));
        JsonNode t = s.path("throughput");
        JsonNode st = s.path("steadyState");
        SummaryDoc.SteadyState steady = !st.isObject() ? null : new SummaryDoc.SteadyState(text(st.path("trend")),
                text(st.path("rule")), number(st.path("change")), number(st.path("changeLow")),
                number(st.path("changeHigh")), st.path("n").asInt());
        JsonNode o = s.path("openLoop");
        SummaryDoc.OpenLoop open = !o.isObject() ? null : new SummaryDoc.OpenLoop(o.path("targetRate").asDouble(),
                number(o.path("achievedRate")), o.path("rateMissedIterations").asLong(),
                o.path("maxInflightHits").asLong(), o.path("sendLagCaveat").asBoolean(),
                percentiles(o.path("uncorrectedNs")), percentiles(o.path("sendLagNs")));
        return new SummaryDoc(s.path("iterations").asInt(), s.path("messages").asLong(),
                new SummaryDoc.Latency(percentiles(latency.path("merged")), longOrNull(latency.path("min")),
                        longOrNull(latency.path("max")), number(latency.path("mean")), means),
                new SummaryDoc.Throughput(number(t.path("mean")), number(t.path("ci")), t.path("n").asInt(),
                        t.path("level").asDouble(), t.path("mibPerSec").asDouble(), number(t.path("mibInPerSec")),
                        number(t.path("mibOutPerSec"))),
                steady, errors(s.path("errors")), resourceSummary(s.path("resources")), open, texts(s.path("warnings")));
    }

    /** An array of strings; null when absent (a document written before the field). */
    private static List<String> texts(JsonNode array) {
        if (!array.isArray()) {
            return null;
        }
        List<String> texts = new ArrayList<>();
        array.forEach(t -> texts.add(t.asText()));
        return List.copyOf(texts);
    }

    private static SummaryDoc.Mean mean(JsonNode m) {
        return new SummaryDoc.Mean(number(m.path("mean")), number(m.path("ci")), m.path("n").asInt(),
                m.path("level").asDouble());
    }

    private static SummaryDoc.Resources resourceSummary(JsonNode r) {
        return !r.isObject() || r.isEmpty() ? null : new SummaryDoc.Resources(number(r.path("cpuPercent")),
                r.path("gcCount").asLong(), r.path("gcMillis").asLong(), number(r.path("allocatedPerMessage")),
                number(r.path("machineBusyPercent")), number(r.path("stealPercent")), number(r.path("othersPercent")),
                r.path("disturbedIterations").asLong(), r.path("clientSaturatedIterations").asLong());
    }

    /** {@code serverStats} of a combination, or null when it has none ({@code --server-stats} not given). */
    public static ServerStatsDoc serverStats(JsonNode s) {
        if (!s.isObject()) {
            return null;
        }
        List<ServerStatsDoc.Iteration> iterations = new ArrayList<>();
        for (JsonNode i : s.path("iterations")) {
            iterations.add(serverIteration(i));
        }
        return new ServerStatsDoc(text(s.path("monitor")), text(s.path("error")), iterations);
    }

    public static ServerStatsDoc.Iteration serverIteration(JsonNode i) {
        return new ServerStatsDoc.Iteration(i.path("index").asInt(), i.path("nanos").asLong(),
                i.path("requests").asLong(), i.path("rejected").asLong(), i.path("protocolErrors").asLong(),
                i.path("connections").asLong(), i.path("bytesIn").asLong(), i.path("bytesOut").asLong(),
                number(i.path("cpuPercent")), i.path("gcCount").asLong(), i.path("gcMillis").asLong(),
                timing(i.path("processingNanos")), timing(i.path("queueWaitNanos")));
    }

    private static ServerStatsDoc.Timing timing(JsonNode t) {
        return new ServerStatsDoc.Timing(t.path("count").asLong(), t.path("min").asLong(), t.path("mean").asDouble(),
                t.path("p50").asLong(), t.path("p90").asLong(), t.path("p99").asLong(), t.path("p999").asLong(),
                t.path("max").asLong());
    }

    private static ErrorsDoc errors(JsonNode e) {
        long[] byClass = new long[ErrorKind.values().length];
        for (ErrorKind k : ErrorKind.values()) {
            byClass[k.ordinal()] = e.path(k.label()).asLong();
        }
        Map<Integer, Long> statuses = new TreeMap<>();
        counts(e.path("statuses")).forEach((code, n) -> statuses.put(Integer.parseInt(code), n));
        return new ErrorsDoc(e.path("total").asLong(), new ErrorCounts.Snapshot(byClass, statuses));
    }

    /** Percentiles by label in the order written; null where nothing completed. */
    private static Map<String, Long> percentiles(JsonNode p) {
        Map<String, Long> byLabel = new LinkedHashMap<>();
        p.properties().forEach(e -> byLabel.put(e.getKey(), longOrNull(e.getValue())));
        return byLabel;
    }

    private static Status status(JsonNode s) {
        return Status.valueOf(s.asText(Status.PASS.name()));
    }

    private static String text(JsonNode n) {
        return n.isValueNode() && !n.isNull() ? n.asText() : null;
    }

    /** A figure that may be null or absent: null then. */
    private static Double number(JsonNode n) {
        return n.isNumber() ? n.asDouble() : null;
    }

    private static Long longOrNull(JsonNode n) {
        return n.isNumber() ? n.asLong() : null;
    }

    /** The negotiated TLS of a client transport, absent without --tls. */
    private static TlsSession tls(JsonNode tls) {
        return tls.isMissingNode() || tls.isNull() ? null : new TlsSession(text(tls.path("engine")),
                text(tls.path("protocol")), text(tls.path("cipher")));
    }

    private static Map<String, String> strings(JsonNode object) {
        return map(object, ResultDocReader::text);
    }

    private static <V> Map<String, V> map(JsonNode object, Function<JsonNode, V> value) {
        Map<String, V> map = new LinkedHashMap<>();
        object.properties().forEach(e -> map.put(e.getKey(), value.apply(e.getValue())));
        return map;
    }

    private static List<String> list(JsonNode array) {
        List<String> list = new ArrayList<>();
        array.forEach(n -> list.add(n.asText()));
        return list;
    }

    private static ObjectNode object(JsonNode n) {
        return n.isObject() ? (ObjectNode) n : ResultDocument.MAPPER.createObjectNode();
    }

    /** An object of counts ({@code {"200": 5}}) in its order; empty when absent. */
    private static Map<String, Long> counts(JsonNode node) {
        Map<String, Long> map = new LinkedHashMap<>();
        node.properties().forEach(e -> map.put(e.getKey(), e.getValue().asLong()));
        return map;
    }
}
