package io.nbench.report.merge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nbench.report.Status;
import io.nbench.report.json.ResultDocument;
import io.nbench.stats.ErrorCounts;
import io.nbench.stats.HistogramCodec;
import io.nbench.stats.IterationResult;
import io.nbench.stats.LatencyHistograms;
import io.nbench.stats.OpenLoopFigures;
import io.nbench.stats.Summary;
import io.nbench.transport.ErrorKind;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.HdrHistogram.Histogram;

/**
 * Result documents of one configuration from several client hosts, as one {@code nbench-result/1}
 * document. Percentiles cannot be averaged, so nothing is: each iteration's histograms (latency, and in the
 * open loop uncorrected latency and send lag; reconnect latency) are the HdrHistogram sum of the hosts'
 * same iteration, and every percentile, interval and summary figure is computed from those sums by the same
 * code that writes a single run's document. Counts add up; an iteration's wall time is the longest host's,
 * so its throughput is all hosts' messages over the common measured window (hosts started together, e.g. with
 * the same schedule, measure the same window). What belongs to one host (its CPU, GC, machine) is not
 * summed: each host's figures are kept side by side in the combination's {@code hosts}. Thresholds are not
 * judged again.
 */
public final class ResultMerge {

    /** A document and the name it is reported by (its path as given). */
    public record Input(String name, JsonNode document) {
    }

    /** The documents are not of one configuration: a one-line reason naming the first difference. */
    public static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;

        Refused(String message) {
            super(message);
        }
    }

    /**
     * A count of the merged document would be beyond a 64-bit integer (a rate beyond a double): one line naming
     * the file and field whose value pushed the sum over. No document nbench writes comes near; a damaged or
     * edited one can.
     */
    public static final class Overflow extends Exception {
        private static final long serialVersionUID = 1L;

        Overflow(String message) {
            super(message);
        }
    }

    /** The counts of an iteration that merging adds up. */
    private static final List<String> ITERATION_COUNTS = iterationCounts();

    private ResultMerge() {
    }

    private static List<String> iterationCounts() {
        List<String> counts = new ArrayList<>(List.of("messages", "clamped"));
        for (ErrorKind k : ErrorKind.values()) {
            counts.add("errors." + k.label());
        }
        return List.copyOf(counts);
    }

    public static ObjectNode merge(List<Input> inputs) throws Refused, Overflow {
        if (inputs.size() < 2) {
            throw new Refused("--merge needs at least two result documents (one per client host)");
        }
        for (Input i : inputs) {
            checkReadable(i);
        }
        Input first = inputs.get(0);
        for (Input other : inputs.subList(1, inputs.size())) {
            checkSameConfiguration(first, other);
        }
        ObjectNode doc = ResultDocument.MAPPER.createObjectNode();
        JsonNode base = first.document();
        doc.put("schema", ResultDocument.SCHEMA);
        doc.set("nbench", base.path("nbench"));
        doc.put("runId", UUID.randomUUID().toString());
        JsonNode worst = worst(inputs.stream().map(Input::document).toList());
        doc.set("status", worst.path("status"));
        doc.set("exitCode", worst.path("exitCode"));
        doc.set("error", inputs.stream().map(i -> i.document().path("error")).filter(JsonNode::isTextual).findFirst()
                .orElse(base.path("error")));
        ObjectNode environment = base.path("environment").deepCopy();
        Set<String> hosts = new LinkedHashSet<>();
        inputs.forEach(i -> hosts.add(i.document().path("environment").path("host").asText("?")));
        environment.put("host", String.join(",", hosts));
        doc.set("environment", environment);
        doc.set("configuration", base.path("configuration"));
        ArrayNode combinations = doc.putArray("combinations");
        for (int c = 0; c < base.path("combinations").size(); c++) {
            combinations.add(combination(inputs, c));
        }
        doc.set("summary", combinations.size() == 1 ? combinations.get(0).get("summary") : null);
        ArrayNode sources = doc.putArray("sources");
        for (Input i : inputs) {
            ObjectNode s = sources.addObject();
            s.put("file", i.name());
            s.set("runId", i.document().path("runId"));
            s.set("host", i.document().path("environment").path("host"));
            s.set("status", i.document().path("status"));
        }
        return doc;
    }

    /**
     * Hosts whose windows do not coincide: per combination, when the start times of two documents are more
     * than one interval (a second) apart, one line naming the earliest and the latest; empty when aligned.
     * Their iterations then cover different windows, so the merged throughput's common window is wider than
     * any host's measurement and a stall seen by one host is diluted by the others.
     */
    public static List<String> clockSkew(List<Input> inputs) {
        List<String> lines = new ArrayList<>();
        int combinations = inputs.get(0).document().path("combinations").size();
        for (int c = 0; c < combinations; c++) {
            Input earliest = null;
            Input latest = null;
            java.time.Instant min = null;
            java.time.Instant max = null;
            for (Input i : inputs) {
                JsonNode start = i.document().path("combinations").path(c).path("startTime");
                if (!start.isTextual()) {
                    continue;
                }
                java.time.Instant t = java.time.Instant.parse(start.asText());
                if (min == null || t.isBefore(min)) {
                    min = t;
                    earliest = i;
                }
                if (max == null || t.isAfter(max)) {
                    max = t;
                    latest = i;
                }
            }
            if (min != null && java.time.Duration.between(min, max).toMillis() > 1000) {
                lines.add(inputs.get(0).document().path("combinations").get(c).path("name").asText() + ": "
                        + latest.name() + " started " + java.time.Duration.between(min, max).toMillis() / 1000.0
                        + " s after " + earliest.name() + " (more than one interval): their iterations cover different "
                        + "windows; start the hosts together with nbench client --start-at");
            }
        }
        return lines;
    }

    /**
     * The fields a merge reads beyond what the schema checks (statuses, counts and histograms are checked when
     * the document is read): start times, well formed.
     */
    private static void checkReadable(Input input) throws Refused {
        for (JsonNode c : input.document().path("combinations")) {
            try {
                java.time.Instant.parse(c.path("startTime").asText());
            } catch (java.time.format.DateTimeParseException e) {
                throw new Refused(input.name() + ": startTime " + c.path("startTime") + " is not an ISO-8601 instant: "
                        + "a damaged document? merge the files nbench client wrote");
            }
        }
    }

    /** Same combinations, each with the same workload, transport and iterations; else the first difference. */
    private static void checkSameConfiguration(Input a, Input b) throws Refused {
        JsonNode ca = a.document().path("combinations");
        JsonNode cb = b.document().path("combinations");
        if (ca.size() != cb.size()) {
            throw refused(a, b, "the number of combinations", ca.size(), cb.size());
        }
        for (int c = 0; c < ca.size(); c++) {
            JsonNode x = ca.get(c);
            JsonNode y = cb.get(c);
            // The workload first: a name differs because a load figure does, and the field says which.
            String where = x.path("name").asText();
            String difference = firstDifference(x.path("load"), y.path("load"), where + ": load");
            if (difference == null) {
                difference = firstDifference(x.path("transport").path("name"), y.path("transport").path("name"),
                        where + ": transport.name");
            }
            if (difference == null) {
                difference = firstDifference(x.path("transport").path("options"), y.path("transport").path("options"),
                        where + ": transport.options");
            }
            if (difference == null) {
                difference = firstDifference(x.path("name"), y.path("name"), "combination " + (c + 1) + "'s name");
            }
            if (difference != null) {
                throw new Refused(b.name() + " is not of " + a.name() + "'s configuration: " + difference
                        + "; merge only documents of the same client options, one per client host");
            }
            if (x.path("iterations").size() != y.path("iterations").size()) {
                throw refused(a, b, where + ": the number of iterations (one was cut short?)",
                        x.path("iterations").size(), y.path("iterations").size());
            }
        }
    }

    private static Refused refused(Input a, Input b, String what, Object va, Object vb) {
        return new Refused(b.name() + " is not of " + a.name() + "'s configuration: " + what + " is " + vb + ", not "
                + va + "; merge only documents of the same client options, one per client host");
    }

    /** The path of the first field that differs, with both values; null when equal. */
    static String firstDifference(JsonNode a, JsonNode b, String path) {
        if (a.equals(b)) {
            return null;
        }
        if (a.isObject() && b.isObject()) {
            Set<String> names = new LinkedHashSet<>();
            a.fieldNames().forEachRemaining(names::add);
            b.fieldNames().forEachRemaining(names::add);
            for (String n : names) {
                String d = firstDifference(a.path(n), b.path(n), path + "." + n);
                if (d != null) {
                    return d;
                }
            }
        }
        return path + " is " + text(b) + ", not " + text(a);
    }

    private static String text(JsonNode n) {
        return n.isMissingNode() ? "absent" : n.toString();
    }

    private static JsonNode worst(List<JsonNode> nodes) {
        JsonNode worst = nodes.get(0);
        for (JsonNode n : nodes) {
            Status w = Status.valueOf(worst.path("status").asText("PASS"));
            Status s = Status.valueOf(n.path("status").asText("PASS"));
            if (w.worse(s) != w) {
                worst = n;
            }
        }
        return worst;
    }

    private static ObjectNode combination(List<Input> inputs, int c) throws Overflow {
        List<JsonNode> parts = inputs.stream().map(i -> i.document().path("combinations").get(c)).toList();
        JsonNode base = parts.get(0);
        ObjectNode node = ResultDocument.MAPPER.createObjectNode();
        node.set("name", base.path("name"));
        node.set("keys", base.path("keys"));
        JsonNode worst = worst(parts);
        node.set("status", worst.path("status"));
        node.set("exitCode", worst.path("exitCode"));
        ArrayNode reasons = node.putArray("reasons");
        for (int i = 0; i < parts.size(); i++) {
            for (JsonNode r : parts.get(i).path("reasons")) {
                reasons.add(inputs.get(i).name() + ": " + r.asText());
            }
        }
        node.set("transport", base.path("transport"));
        node.set("load", base.path("load"));
        node.set("startTime", parts.stream().map(p -> p.path("startTime").asText()).sorted().findFirst()
                .map(ResultDocument.MAPPER.getNodeFactory()::textNode).orElseThrow());
        node.set("aborted", parts.stream().map(p -> p.path("aborted")).filter(JsonNode::isTextual).findFirst()
                .orElse(base.path("aborted")));
        node.set("abortCause", parts.stream().map(p -> p.path("abortCause")).filter(JsonNode::isTextual).findFirst()
                .orElse(base.path("abortCause")));
        node.put("interrupted", parts.stream().anyMatch(p -> p.path("interrupted").asBoolean()));

        List<Double> percentiles = new ArrayList<>();
        base.path("load").path("percentiles").forEach(p -> percentiles.add(p.asDouble()));
        int payload = base.path("load").path("size").asInt();
        List<IterationResult> iterations = new ArrayList<>();
        ArrayNode its = node.putArray("iterations");
        // The summary adds the measured iterations up again: their running sums are checked as they grow.
        Counts measured = new Counts();
        for (int i = 0; i < base.path("iterations").size(); i++) {
            IterationResult merged = iteration(inputs, c, i, payload, measured);
            iterations.add(merged);
            its.add(ResultDocument.iteration(merged, percentiles));
        }
        node.set("summary", ResultDocument.summary(new Summary(iterations, percentiles)));
        node.set("errors", runErrors(inputs, c));
        node.putArray("thresholds");
        ArrayNode hosts = node.putArray("hosts");
        for (int i = 0; i < parts.size(); i++) {
            JsonNode s = parts.get(i).path("summary");
            ObjectNode h = hosts.addObject();
            h.put("file", inputs.get(i).name());
            h.set("host", inputs.get(i).document().path("environment").path("host"));
            h.set("messages", s.path("messages"));
            h.set("throughput", s.path("throughput").path("mean"));
            h.set("resources", s.path("resources"));
        }
        return node;
    }

    /**
     * Iteration {@code i} of combination {@code c} of every host: histograms added, counts summed (exactly: a
     * sum beyond a long is refused), the longest wall time. {@code measured} sums the measured iterations.
     */
    private static IterationResult iteration(List<Input> inputs, int c, int i, int payload, Counts measured)
            throws Overflow {
        JsonNode base = inputs.get(0).document().path("combinations").get(c).path("iterations").get(i);
        String at = "combinations[" + c + "].iterations[" + i + "].";
        boolean warmup = base.path("warmup").asBoolean();
        Counts sums = new Counts();
        Histogram latency = LatencyHistograms.newHistogram();
        long wall = 0;
        boolean partial = false;
        boolean open = base.path("openLoop").isObject();
        Histogram uncorrected = open ? LatencyHistograms.newHistogram() : null;
        Histogram sendLag = open ? LatencyHistograms.newHistogram() : null;
        double targetRate = 0;
        boolean reconnects = base.path("connectLatency").isObject();
        Histogram connect = reconnects ? LatencyHistograms.newHistogram() : null;
        for (Input input : inputs) {
            JsonNode p = input.document().path("combinations").get(c).path("iterations").get(i);
            latency.add(HistogramCodec.decode(p.path("histogram").asText()));
            for (String field : ITERATION_COUNTS) {
                long v = p.at("/" + field.replace('.', '/')).asLong();
                sums.add(field, v, input.name(), at + field);
                // The error total adds every class up; the summary adds the measured iterations up.
                if (field.startsWith("errors.")) {
                    sums.add("errors", v, input.name(), at + field);
                }
                if (!warmup) {
                    measured.add(field, v, input.name(), at + field);
                    if (field.startsWith("errors.")) {
                        measured.add("errors", v, input.name(), at + field);
                    }
                }
            }
            wall = Math.max(wall, p.path("wallNs").asLong());
            partial |= p.path("partial").asBoolean();
            if (open) {
                JsonNode o = p.path("openLoop");
                uncorrected.add(HistogramCodec.decode(o.path("uncorrectedHistogram").asText()));
                sendLag.add(HistogramCodec.decode(o.path("sendLagHistogram").asText()));
                targetRate += o.path("targetRate").asDouble();
                if (!Double.isFinite(targetRate)) {
                    throw new Overflow(input.name() + ": " + at + "openLoop.targetRate: the hosts' sum is beyond a "
                            + "double: a damaged document? merge the files nbench client wrote");
                }
                sums.add("sent", o.path("sent").asLong(), input.name(), at + "openLoop.sent");
                sums.add("maxInflightHits", o.path("maxInflightHits").asLong(), input.name(), at + "openLoop.maxInflightHits");
                if (!warmup) {
                    measured.add("maxInflightHits", o.path("maxInflightHits").asLong(), input.name(),
                            at + "openLoop.maxInflightHits");
                }
            }
            if (reconnects && p.path("connectLatency").isObject()) {
                connect.add(HistogramCodec.decode(p.path("connectLatency").path("histogram").asText()));
            }
        }
        long[] errors = new long[ErrorKind.values().length];
        for (ErrorKind k : ErrorKind.values()) {
            errors[k.ordinal()] = sums.get("errors." + k.label());
        }
        OpenLoopFigures openLoop = open ? new OpenLoopFigures(targetRate, sums.get("sent"), sums.get("maxInflightHits"),
                uncorrected, sendLag) : null;
        return new IterationResult(base.path("index").asInt(), warmup, sums.get("messages"), wall, payload,
                latency, new ErrorCounts.Snapshot(errors), sums.get("clamped"), partial, null, openLoop, connect);
    }

    /** Exact sums of counts by name; an addition beyond a long names the file and field of the value added. */
    private static final class Counts {
        private final Map<String, Long> sums = new java.util.HashMap<>();

        void add(String name, long value, String file, String field) throws Overflow {
            long before = get(name);
            try {
                sums.put(name, Math.addExact(before, value));
            } catch (ArithmeticException e) {
                throw new Overflow(file + ": " + field + ": " + value + " added to the " + before + " of the merged "
                        + "documents is beyond a 64-bit count: a damaged document? merge the files nbench client wrote");
            }
        }

        long get(String name) {
            return sums.getOrDefault(name, 0L);
        }
    }

    /** The whole run's errors (warmup included) of every host, by class; each host's first message of a class. */
    private static ObjectNode runErrors(List<Input> inputs, int c) throws Overflow {
        ObjectNode node = ResultDocument.MAPPER.createObjectNode();
        List<String> counted = new ArrayList<>(List.of("total"));
        for (ErrorKind k : ErrorKind.values()) {
            counted.add(k.label());
        }
        counted.addAll(List.of("lateResponses", "reconnects"));
        Counts sums = new Counts();
        ObjectNode first = ResultDocument.MAPPER.createObjectNode();
        for (Input input : inputs) {
            JsonNode e = input.document().path("combinations").get(c).path("errors");
            for (String field : counted) {
                sums.add(field, e.path(field).asLong(), input.name(), "combinations[" + c + "].errors." + field);
            }
            for (Map.Entry<String, JsonNode> entry : e.path("first").properties()) {
                if (!first.has(entry.getKey())) {
                    first.set(entry.getKey(), entry.getValue());
                }
            }
        }
        for (String field : counted) {
            node.put(field, sums.get(field));
        }
        node.set("first", first);
        return node;
    }
}
