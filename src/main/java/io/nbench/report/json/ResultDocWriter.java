package io.nbench.report.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nbench.report.MeasuredServer;
import io.nbench.transport.ErrorKind;
import java.util.Map;

/**
 * The one writer of result documents: {@link ResultDoc} to the JSON tree that {@link ResultDocument#pretty} and
 * {@link ResultDocument#compact} print. The field order here is the document's; a field that a record holds as
 * null is written null, except the few that are absent instead (said on the record's component).
 */
public final class ResultDocWriter {

    private ResultDocWriter() {
    }

    public static ObjectNode document(ResultDoc d) {
        ObjectNode doc = ResultDocument.MAPPER.createObjectNode();
        doc.put("schema", ResultDocument.SCHEMA);
        doc.put("nbench", d.nbench());
        doc.put("runId", d.runId());
        doc.put("status", d.status().name());
        doc.put("exitCode", d.exitCode());
        doc.put("error", d.error());
        ObjectNode env = doc.putObject("environment");
        d.environment().forEach(env::put);
        ObjectNode config = doc.putObject("configuration");
        config.put("target", d.configuration().target());
        if (d.configuration().server() != null) { // absent when not known: older documents read back byte for byte
            config.set("server", server(d.configuration().server()));
        }
        config.set("arguments", ResultDocument.MAPPER.valueToTree(d.configuration().arguments()));
        config.set("options", d.configuration().options());
        config.set("keys", ResultDocument.MAPPER.valueToTree(d.configuration().keys()));
        ArrayNode combinations = doc.putArray("combinations");
        for (CombinationDoc c : d.combinations()) {
            combinations.add(combination(c));
        }
        // The same object as the combination's: written once per place, as the tree was before the records.
        doc.set("summary", combinations.size() == 1 ? combinations.get(0).get("summary") : null);
        if (d.capacity() != null) {
            ObjectNode capacity = capacity(d.capacity());
            doc.set("capacity", capacity);
            if (d.curve() != null) {
                capacity.set("curve", curve(d.curve()));
            }
        } else if (d.curve() != null) {
            doc.set("curve", curve(d.curve()));
        }
        if (d.sources() != null) {
            ArrayNode sources = doc.putArray("sources");
            for (ResultDoc.Source s : d.sources()) {
                sources.addObject().put("file", s.file()).put("runId", s.runId()).put("host", s.host())
                        .put("status", s.status().name());
            }
        }
        return doc;
    }

    /** {@code configuration.server}. */
    private static ObjectNode server(MeasuredServer s) {
        return ResultDocument.MAPPER.createObjectNode().put("transport", s.transport()).put("protocol", s.protocol())
                .put("address", s.address()).put("source", s.source() == null ? null : s.source().label());
    }

    private static ObjectNode capacity(CapacityDoc c) {
        ObjectNode node = ResultDocument.MAPPER.createObjectNode();
        node.put("objective", c.objective());
        node.put("resolution", c.resolution());
        node.put("firstGuess", c.firstGuess());
        node.put("outcome", c.outcome());
        node.put("passed", c.passed());
        node.put("failed", c.failed());
        ArrayNode steps = node.putArray("steps");
        for (CapacityDoc.Step s : c.steps()) {
            steps.addObject().put("combination", s.combination()).put("targetRate", s.targetRate())
                    .put("achievedRate", s.achievedRate()).put("answeredRate", s.answeredRate()).put("passed", s.passed())
                    .put("nearBoundary", s.nearBoundary()).put("decided", s.decided()).put("cause", s.cause())
                    .put("confirming", s.confirming());
        }
        node.put("clientLimit", c.clientLimit());
        ObjectNode spread = node.putObject("spread");
        spread.set("passed", spread(c.passedSpread()));
        spread.set("failed", spread(c.failedSpread()));
        return node;
    }

    private static ArrayNode curve(CurveDoc c) {
        ArrayNode points = ResultDocument.MAPPER.createArrayNode();
        for (CurveDoc.Point p : c.points()) {
            points.addObject().put("combination", p.combination()).put("offeredRate", p.offeredRate())
                    .put("achievedRate", p.achievedRate()).put("answeredRate", p.answeredRate()).put("p50", p.p50())
                    .put("p99", p.p99()).put("p999", p.p999()).put("errors", p.errors()).put("cause", p.cause())
                    .put("knee", p.knee());
        }
        return points;
    }

    /** The runs at one end of the bracket, or JSON null. */
    private static JsonNode spread(CapacityDoc.Spread s) {
        if (s == null) {
            return ResultDocument.MAPPER.nullNode();
        }
        return ResultDocument.MAPPER.createObjectNode().put("runs", s.runs()).put("passes", s.passes())
                .put("answeredMin", s.answeredMin()).put("answeredMax", s.answeredMax());
    }

    public static ObjectNode combination(CombinationDoc c) {
        ObjectNode node = ResultDocument.MAPPER.createObjectNode();
        node.put("name", c.name());
        node.set("keys", ResultDocument.MAPPER.valueToTree(c.keys()));
        node.put("status", c.status().name());
        node.put("exitCode", c.exitCode());
        node.set("reasons", ResultDocument.MAPPER.valueToTree(c.reasons()));
        ObjectNode transport = node.putObject("transport");
        transport.put("name", c.transport().name());
        transport.set("options", ResultDocument.MAPPER.valueToTree(c.transport().options()));
        transport.set("effective", ResultDocument.MAPPER.valueToTree(c.transport().effective()));
        if (c.transport().tls() != null) {
            ObjectNode tls = transport.putObject("tls");
            tls.put("engine", c.transport().tls().engine());
            tls.put("protocol", c.transport().tls().protocol());
            tls.put("cipher", c.transport().tls().cipher());
        }
        node.set("load", c.load().fields());
        node.put("startTime", c.startTime());
        node.put("aborted", c.aborted());
        node.put("abortCause", c.abortCause());
        node.put("interrupted", c.interrupted());
        ArrayNode iterations = node.putArray("iterations");
        c.iterations().forEach(it -> iterations.add(iteration(it)));
        node.set("summary", summary(c.summary()));
        if (!c.merged()) {
            node.set("drain", c.drain() == null ? ResultDocument.MAPPER.nullNode() : drain(c.drain()));
        }
        ObjectNode errors = errors(c.errors().counts());
        errors.put("lateResponses", c.errors().lateResponses());
        errors.put("reconnects", c.errors().reconnects());
        ObjectNode first = errors.putObject("first");
        c.errors().first().forEach(first::put);
        if (!c.errors().statuses().isEmpty()) {
            ObjectNode statuses = errors.putObject("statuses");
            c.errors().statuses().forEach(statuses::put);
        }
        node.set("errors", errors);
        if (c.intervals() != null) {
            ArrayNode seconds = node.putArray("intervals");
            c.intervals().forEach(i -> seconds.add(interval(i)));
        }
        if (c.serverStats() != null) {
            node.set("serverStats", serverStats(c.serverStats()));
        }
        ArrayNode thresholds = node.putArray("thresholds");
        c.thresholds().forEach(t -> thresholds.add(threshold(t)));
        if (c.merged()) {
            ArrayNode hosts = node.putArray("hosts");
            for (CombinationDoc.Host h : c.hosts()) {
                ObjectNode o = hosts.addObject();
                o.put("file", h.file());
                o.put("host", h.host());
                o.put("messages", h.messages());
                AsRead.put(o, "throughput", h.throughput());
                o.set("resources", resourceSummary(h.resources(), true));
            }
        }
        return node;
    }

    public static ObjectNode iteration(IterationDoc it) {
        ObjectNode node = ResultDocument.MAPPER.createObjectNode();
        node.put("index", it.index());
        node.put("warmup", it.warmup());
        node.put("messages", it.messages());
        node.put("wallNs", it.wallNs());
        node.put("msgPerSec", it.msgPerSec());
        node.put("mibPerSec", it.mibPerSec());
        if (it.transfer() != null) { // absent in documents written before: they read back byte for byte
            node.put("bytesIn", it.transfer().bytesIn());
            node.put("bytesOut", it.transfer().bytesOut());
            node.put("mibInPerSec", it.transfer().mibInPerSec());
            node.put("mibOutPerSec", it.transfer().mibOutPerSec());
        }
        node.set("latencyNs", percentiles(it.latencyNs()));
        node.set("errors", errors(it.errors()));
        node.put("clamped", it.clamped());
        node.put("partial", it.partial());
        node.put("histogram", it.histogram());
        node.set("resources", resources(it.resources()));
        IterationDoc.OpenLoop o = it.openLoop();
        if (o == null) {
            node.putNull("openLoop");
        } else {
            ObjectNode open = node.putObject("openLoop");
            open.put("targetRate", o.targetRate());
            open.put("achievedRate", o.achievedRate());
            open.put("missed", o.missed());
            open.put("sent", o.sent());
            open.put("maxInflightHits", o.maxInflightHits());
            open.put("sendLagCaveat", o.sendLagCaveat());
            open.set("uncorrectedNs", percentiles(o.uncorrectedNs()));
            open.set("sendLagNs", percentiles(o.sendLagNs()));
            open.put("uncorrectedHistogram", o.uncorrectedHistogram());
            open.put("sendLagHistogram", o.sendLagHistogram());
        }
        connectLatency(node, "connectLatency", it.connectLatency());
        if (it.handshakeLatency() != null) { // absent, not null, without TLS: older documents read back byte for byte
            connectLatency(node, "handshakeLatency", it.handshakeLatency());
        }
        if (it.openingHandshakes() > 0) { // the first measured iteration with TLS only
            node.put("openingHandshakes", it.openingHandshakes());
        }
        if (it.latencyByStatusClass() != null) { // HTTP only: absent in other protocols' documents
            ObjectNode classes = node.putObject("latencyByStatusClass");
            it.latencyByStatusClass().forEach((label, l) -> connectLatency(classes, label, l));
        }
        return node;
    }

    private static void connectLatency(ObjectNode node, String name, IterationDoc.ConnectLatency cl) {
        if (cl == null) {
            node.putNull(name);
        } else {
            ObjectNode c = node.putObject(name);
            c.put("count", cl.count());
            if (cl.resumed() != null) {
                c.put("resumed", cl.resumed());
            }
            c.set("latencyNs", percentiles(cl.latencyNs()));
            c.put("histogram", cl.histogram());
        }
    }

    private static ObjectNode drain(DrainDoc d) {
        ObjectNode node = ResultDocument.MAPPER.createObjectNode();
        node.put("messages", d.messages());
        node.put("wallNs", d.wallNs());
        node.set("latencyNs", percentiles(d.latencyNs()));
        node.set("errors", errors(d.errors()));
        node.put("histogram", d.histogram());
        return node;
    }

    private static ObjectNode resources(IterationDoc.Resources u) {
        ObjectNode node = ResultDocument.MAPPER.createObjectNode();
        if (u == null) {
            return node;
        }
        node.put("cpuPercent", u.cpuPercent());
        node.put("gcCount", u.gcCount());
        node.put("gcMillis", u.gcMillis());
        node.put("allocatedBytes", u.allocatedBytes());
        node.put("allocatedPerMessage", u.allocatedPerMessage());
        node.put("machineBusyPercent", u.machineBusyPercent());
        node.put("stealPercent", u.stealPercent());
        node.put("othersPercent", u.othersPercent());
        node.put("disturbed", u.disturbed());
        node.put("clientSaturated", u.clientSaturated());
        return node;
    }

    private static ObjectNode percentiles(Map<String, Long> byLabel) {
        ObjectNode node = ResultDocument.MAPPER.createObjectNode();
        byLabel.forEach(node::put);
        return node;
    }

    public static ObjectNode summary(SummaryDoc s) {
        ObjectNode node = ResultDocument.MAPPER.createObjectNode();
        node.put("iterations", s.iterations());
        node.put("messages", s.messages());
        ObjectNode latency = node.putObject("latencyNs");
        latency.set("merged", percentiles(s.latencyNs().merged()));
        latency.put("min", s.latencyNs().min());
        latency.put("max", s.latencyNs().max());
        latency.put("mean", s.latencyNs().mean());
        ObjectNode means = latency.putObject("meanOfIterations");
        s.latencyNs().meanOfIterations().forEach((p, m) -> means.set(p, mean(m)));
        SummaryDoc.Throughput t = s.throughput();
        ObjectNode throughput = mean(new SummaryDoc.Mean(t.mean(), t.ci(), t.n(), t.level()));
        throughput.put("mibPerSec", t.mibPerSec());
        if (t.mibInPerSec() != null) {
            throughput.put("mibInPerSec", t.mibInPerSec());
            throughput.put("mibOutPerSec", t.mibOutPerSec());
        }
        node.set("throughput", throughput);
        if (s.steadyState() != null) {
            SummaryDoc.SteadyState st = s.steadyState();
            ObjectNode steady = node.putObject("steadyState");
            steady.put("trend", st.trend());
            steady.put("rule", st.rule());
            steady.put("change", st.change());
            steady.put("changeLow", st.changeLow());
            steady.put("changeHigh", st.changeHigh());
            steady.put("n", st.n());
        }
        node.set("errors", errors(s.errors()));
        node.set("resources", resourceSummary(s.resources(), false));
        SummaryDoc.OpenLoop o = s.openLoop();
        if (o == null) {
            node.putNull("openLoop");
        } else {
            ObjectNode open = node.putObject("openLoop");
            open.put("targetRate", o.targetRate());
            open.put("achievedRate", o.achievedRate());
            open.put("rateMissedIterations", o.rateMissedIterations());
            open.put("maxInflightHits", o.maxInflightHits());
            open.put("sendLagCaveat", o.sendLagCaveat());
            open.set("uncorrectedNs", percentiles(o.uncorrectedNs()));
            open.set("sendLagNs", percentiles(o.sendLagNs()));
        }
        if (s.warnings() != null) { // null: read from a document written before the field, written back without it
            ArrayNode warnings = node.putArray("warnings");
            s.warnings().forEach(warnings::add);
        }
        return node;
    }

    /** {@code asRead}: a merged document's host figures, printed as the read copy was ({@link AsRead}). */
    private static ObjectNode resourceSummary(SummaryDoc.Resources r, boolean asRead) {
        ObjectNode node = ResultDocument.MAPPER.createObjectNode();
        if (r == null) {
            return node;
        }
        AsRead.put(node, "cpuPercent", r.cpuPercent(), asRead);
        node.put("gcCount", r.gcCount());
        node.put("gcMillis", r.gcMillis());
        AsRead.put(node, "allocatedPerMessage", r.allocatedPerMessage(), asRead);
        AsRead.put(node, "machineBusyPercent", r.machineBusyPercent(), asRead);
        AsRead.put(node, "stealPercent", r.stealPercent(), asRead);
        AsRead.put(node, "othersPercent", r.othersPercent(), asRead);
        node.put("disturbedIterations", r.disturbedIterations());
        node.put("clientSaturatedIterations", r.clientSaturatedIterations());
        return node;
    }

    private static ObjectNode mean(SummaryDoc.Mean m) {
        ObjectNode node = ResultDocument.MAPPER.createObjectNode();
        node.put("mean", m.mean());
        node.put("ci", m.ci());
        node.put("n", m.n());
        node.put("level", m.level());
        return node;
    }

    private static ObjectNode errors(ErrorsDoc e) {
        ObjectNode node = ResultDocument.MAPPER.createObjectNode();
        node.put("total", e.total());
        for (ErrorKind k : ErrorKind.values()) {
            node.put(k.label(), e.byClass().get(k));
        }
        if (!e.byClass().statuses().isEmpty()) { // HTTP only: no empty object in other protocols' documents
            ObjectNode statuses = node.putObject("statuses");
            e.byClass().statuses().forEach((code, n) -> statuses.put(Integer.toString(code), n));
        }
        return node;
    }

    private static ObjectNode threshold(ThresholdDoc t) {
        ObjectNode node = ResultDocument.MAPPER.createObjectNode();
        node.put("expression", t.expression());
        node.put("metric", t.metric());
        node.put("operator", t.operator());
        node.put("limit", t.limit());
        node.put("actual", t.actual());
        node.put("unit", t.unit());
        node.put("passed", t.passed());
        node.put("judged", t.judged());
        return node;
    }

    /** One second's figures: an element of {@code intervals}, and a {@code --format ndjson} line. */
    public static ObjectNode interval(IntervalDoc i) {
        ObjectNode node = ResultDocument.MAPPER.createObjectNode();
        node.put("type", IntervalDoc.TYPE);
        node.put("combination", i.combination());
        node.put("iteration", i.iteration());
        node.put("warmup", i.warmup());
        node.put("startNs", i.startNs());
        node.put("endNs", i.endNs());
        node.put("messages", i.messages());
        node.put("msgPerSec", i.msgPerSec());
        node.put("p50Ns", i.p50Ns());
        node.put("p99Ns", i.p99Ns());
        node.put("maxNs", i.maxNs());
        node.put("errors", i.errors());
        node.put("cpuPercent", i.cpuPercent());
        node.put("stealPercent", i.stealPercent());
        node.put("gcCount", i.gcCount());
        node.put("gcMillis", i.gcMillis());
        return node;
    }

    /** {@code --server-stats}' figures as {@code nbench client} writes them. */
    public static ObjectNode serverStats(ServerStatsDoc s) {
        ObjectNode node = ResultDocument.MAPPER.createObjectNode();
        node.put("monitor", s.monitor());
        node.put("error", s.error());
        ArrayNode iterations = node.putArray("iterations");
        s.iterations().forEach(i -> iterations.add(serverIteration(i)));
        return node;
    }

    public static ObjectNode serverIteration(ServerStatsDoc.Iteration i) {
        ObjectNode d = ResultDocument.MAPPER.createObjectNode();
        d.put("index", i.index());
        d.put("nanos", i.nanos());
        d.put("requests", i.requests());
        d.put("rejected", i.rejected());
        d.put("protocolErrors", i.protocolErrors());
        d.put("connections", i.connections());
        d.put("bytesIn", i.bytesIn());
        d.put("bytesOut", i.bytesOut());
        d.put("cpuPercent", i.cpuPercent());
        d.put("gcCount", i.gcCount());
        d.put("gcMillis", i.gcMillis());
        d.set("processingNanos", timing(i.processingNanos()));
        d.set("queueWaitNanos", timing(i.queueWaitNanos()));
        return d;
    }

    private static ObjectNode timing(ServerStatsDoc.Timing t) {
        ObjectNode node = ResultDocument.MAPPER.createObjectNode();
        node.put("count", t.count());
        node.put("min", t.min());
        node.put("mean", t.mean());
        node.put("p50", t.p50());
        node.put("p90", t.p90());
        node.put("p99", t.p99());
        node.put("p999", t.p999());
        node.put("max", t.max());
        return node;
    }
}
