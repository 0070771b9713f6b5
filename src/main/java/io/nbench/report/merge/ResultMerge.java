package io.nbench.report.merge;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.report.MeasuredServer;
import io.nbench.report.Status;
import io.nbench.report.json.CombinationDoc;
import io.nbench.report.json.ErrorsDoc;
import io.nbench.report.json.IterationDoc;
import io.nbench.report.json.ResultDoc;
import io.nbench.report.json.ResultDocument;
import io.nbench.stats.ErrorCounts;
import io.nbench.stats.HistogramCodec;
import io.nbench.stats.IterationResult;
import io.nbench.stats.LatencyHistograms;
import io.nbench.stats.OpenLoopFigures;
import io.nbench.stats.StatusClassLatency;
import io.nbench.stats.Summary;
import io.nbench.transport.ErrorKind;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Function;
import org.HdrHistogram.Histogram;

/**
 * Result documents of one configuration from several client hosts, as one {@code nbench-result/1}
 * document. Percentiles cannot be averaged, so nothing is: each iteration's histograms (latency, and in the
 * open loop uncorrected latency and send lag; reconnect latency and its TLS handshakes') are the HdrHistogram sum of the hosts'
 * same iteration, and every percentile, interval and summary figure is computed from those sums by the same
 * code that writes a single run's document. Counts add up; an iteration's wall time is the longest host's,
 * so its throughput is all hosts' messages over the common measured window (hosts started together, e.g. with
 * the same schedule, measure the same window). What belongs to one host (its CPU, GC, machine) is not
 * summed: each host's figures are kept side by side in the combination's {@code hosts}. Thresholds are not
 * judged again.
 */
public final class ResultMerge {

    /** A document and the name it is reported by (its path as given). */
    public record Input(String name, ResultDoc document) {
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

    private ResultMerge() {
    }

    public static ResultDoc merge(List<Input> inputs) throws Refused, Overflow {
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
        ResultDoc base = first.document();
        MeasuredServer server = sameServer(inputs);
        ResultDoc worst = worst(inputs.stream().map(Input::document).toList(), ResultDoc::status);
        String error = inputs.stream().map(i -> i.document().error()).filter(e -> e != null).findFirst()
                .orElse(base.error());
        Map<String, String> environment = new LinkedHashMap<>(base.environment());
        Set<String> hosts = new LinkedHashSet<>();
        inputs.forEach(i -> hosts.add(host(i)));
        environment.put("host", String.join(",", hosts));
        List<CombinationDoc> combinations = new ArrayList<>();
        for (int c = 0; c < base.combinations().size(); c++) {
            combinations.add(combination(inputs, c));
        }
        List<ResultDoc.Source> sources = new ArrayList<>();
        for (Input i : inputs) {
            sources.add(new ResultDoc.Source(i.name(), i.document().runId(), i.document().environment().get("host"),
                    i.document().status()));
        }
        return new ResultDoc(base.nbench(), UUID.randomUUID().toString(), worst.status(), worst.exitCode(), error,
                environment, base.configuration().withServer(server), combinations, sources);
    }

    /**
     * The server the documents measured: theirs when they all name the same; null when they name it apart (one
     * client host by its name, another by its address) or one does not know it. Two known transports that differ
     * are two servers, whose figures do not add up: refused.
     */
    private static MeasuredServer sameServer(List<Input> inputs) throws Refused {
        Input first = inputs.get(0);
        MeasuredServer server = first.document().configuration().server();
        boolean same = true;
        for (Input other : inputs.subList(1, inputs.size())) {
            MeasuredServer s = other.document().configuration().server();
            String a = server == null ? null : server.transport();
            String b = s == null ? null : s.transport();
            if (a != null && b != null && !a.equals(b)) {
                throw new Refused(other.name() + " measured another server than " + first.name() + ": its transport is "
                        + b + ", not " + a + "; merge only documents of one server, one per client host");
            }
            same &= Objects.equals(server, s);
        }
        return same ? server : null;
    }

    private static String host(Input i) {
        return i.document().environment().getOrDefault("host", "?");
    }

    /**
     * Hosts whose windows do not coincide: per combination, when the start times of two documents are more
     * than one interval (a second) apart, one line naming the earliest and the latest; empty when aligned.
     * Their iterations then cover different windows, so the merged throughput's common window is wider than
     * any host's measurement and a stall seen by one host is diluted by the others.
     */
    public static List<String> clockSkew(List<Input> inputs) {
        List<String> lines = new ArrayList<>();
        List<CombinationDoc> combinations = inputs.get(0).document().combinations();
        for (int c = 0; c < combinations.size(); c++) {
            Input earliest = null;
            Input latest = null;
            Instant min = null;
            Instant max = null;
            for (Input i : inputs) {
                List<CombinationDoc> its = i.document().combinations();
                String start = c < its.size() ? its.get(c).startTime() : null;
                if (start == null) {
                    continue;
                }
                Instant t = Instant.parse(start);
                if (min == null || t.isBefore(min)) {
                    min = t;
                    earliest = i;
                }
                if (max == null || t.isAfter(max)) {
                    max = t;
                    latest = i;
                }
            }
            if (min != null && Duration.between(min, max).toMillis() > 1000) {
                lines.add(combinations.get(c).name() + ": " + latest.name() + " started "
                        + Duration.between(min, max).toMillis() / 1000.0 + " s after " + earliest.name()
                        + " (more than one interval): their iterations cover different windows; start the hosts "
                        + "together with nbench client --start-at");
            }
        }
        return lines;
    }

    /**
     * The fields a merge reads beyond what the schema checks (statuses, counts and histograms are checked when
     * the document is read): start times, well formed.
     */
    static void checkReadable(Input input) throws Refused {
        for (CombinationDoc c : input.document().combinations()) {
            try {
                Instant.parse(c.startTime() == null ? "" : c.startTime());
            } catch (DateTimeParseException e) {
                throw new Refused(input.name() + ": startTime " + tree(c.startTime()) + " is not an ISO-8601 instant: "
                        + "a damaged document? merge the files nbench client wrote");
            }
        }
    }

    /** Same combinations, each with the same workload, transport and iterations; else the first difference. */
    private static void checkSameConfiguration(Input a, Input b) throws Refused {
        checkSameConfiguration(a, b, true);
    }

    /** As {@link #checkSameConfiguration(Input, Input)}; the iterations' number only when {@code sameIterations}. */
    static void checkSameConfiguration(Input a, Input b, boolean sameIterations) throws Refused {
        List<CombinationDoc> ca = a.document().combinations();
        List<CombinationDoc> cb = b.document().combinations();
        // Forks run one after another: an interrupted one stops its sweep, so it may hold fewer combinations.
        boolean cutShort = !sameIterations && cb.size() < ca.size() && b.document().status() == Status.INTERRUPTED;
        if (ca.size() != cb.size() && !cutShort) {
            throw refused(a, b, "the number of combinations", ca.size(), cb.size());
        }
        for (int c = 0; c < cb.size(); c++) {
            CombinationDoc x = ca.get(c);
            CombinationDoc y = cb.get(c);
            // The workload first: a name differs because a load figure does, and the field says which.
            String where = x.name();
            String difference = firstDifference(x.load().fields(), y.load().fields(), where + ": load");
            if (difference == null) {
                difference = firstDifference(tree(x.transport().name()), tree(y.transport().name()),
                        where + ": transport.name");
            }
            if (difference == null) {
                difference = firstDifference(tree(x.transport().options()), tree(y.transport().options()),
                        where + ": transport.options");
            }
            if (difference == null) {
                difference = firstDifference(tree(x.name()), tree(y.name()), "combination " + (c + 1) + "'s name");
            }
            if (difference != null) {
                throw new Refused(b.name() + " is not of " + a.name() + "'s configuration: " + difference
                        + "; merge only documents of the same client options, one per client host");
            }
            if (!sameIterations) {
                continue; // forks joined one after another: one may have been cut short
            }
            if (x.iterations().size() != y.iterations().size()) {
                throw refused(a, b, where + ": the number of iterations (one was cut short?)",
                        x.iterations().size(), y.iterations().size());
            }
        }
    }

    /** A value as JSON, for {@link #firstDifference}'s comparison and its message. */
    private static JsonNode tree(Object value) {
        return ResultDocument.MAPPER.valueToTree(value);
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

    /** The first of the worst status (a tie keeps the earlier). */
    static <T> T worst(List<T> parts, Function<T, Status> status) {
        T worst = parts.get(0);
        for (T p : parts) {
            Status w = status.apply(worst);
            if (w.worse(status.apply(p)) != w) {
                worst = p;
            }
        }
        return worst;
    }

    private static CombinationDoc combination(List<Input> inputs, int c) throws Overflow {
        List<CombinationDoc> parts = inputs.stream().map(i -> i.document().combinations().get(c)).toList();
        CombinationDoc base = parts.get(0);
        CombinationDoc worst = worst(parts, CombinationDoc::status);
        List<String> reasons = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            for (String r : parts.get(i).reasons()) {
                reasons.add(inputs.get(i).name() + ": " + r);
            }
        }
        String startTime = parts.stream().map(CombinationDoc::startTime).sorted().findFirst().orElseThrow();
        String aborted = parts.stream().map(CombinationDoc::aborted).filter(a -> a != null).findFirst()
                .orElse(base.aborted());
        String abortCause = parts.stream().map(CombinationDoc::abortCause).filter(a -> a != null).findFirst()
                .orElse(base.abortCause());
        boolean interrupted = parts.stream().anyMatch(CombinationDoc::interrupted);

        List<Double> percentiles = base.load().percentiles();
        int payload = payload(base);
        List<IterationResult> iterations = new ArrayList<>();
        List<IterationDoc> its = new ArrayList<>();
        // The summary adds the measured iterations up again: their running sums are checked as they grow.
        Counts measured = new Counts();
        for (int i = 0; i < base.iterations().size(); i++) {
            IterationResult merged = iteration(inputs, c, i, payload, measured);
            iterations.add(merged);
            its.add(ResultDocument.iterationDoc(merged, percentiles));
        }
        List<CombinationDoc.Host> hosts = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            var s = parts.get(i).summary();
            hosts.add(new CombinationDoc.Host(inputs.get(i).name(), inputs.get(i).document().environment().get("host"),
                    s.messages(), s.throughput().mean(), s.resources()));
        }
        return new CombinationDoc(base.name(), base.keys(), worst.status(), worst.exitCode(), reasons,
                base.transport(), base.load(), startTime, aborted, abortCause, interrupted, its,
                ResultDocument.summaryDoc(new Summary(iterations, percentiles, base.load().iterationNanos()), base.load().pacing()), null, runErrors(inputs, c), null, null,
                List.of(), hosts);
    }

    /**
     * The request payload a message sent, for the merged MiB/s: what the document's own MiB/s says of it (an HTTP
     * GET sends none, whatever its {@code --size}), else {@code --size} when no iteration completed a message.
     */
    static int payload(CombinationDoc base) {
        for (IterationDoc it : base.iterations()) {
            if (it.messages() > 0 && it.wallNs() > 0) {
                return (int) Math.round(it.mibPerSec() * (1 << 20) * (it.wallNs() / 1e9) / it.messages());
            }
        }
        return base.load().size();
    }

    /**
     * Iteration {@code i} of combination {@code c} of every host: histograms added, counts summed (exactly: a
     * sum beyond a long is refused), the longest wall time. {@code measured} sums the measured iterations.
     */
    static IterationResult iteration(List<Input> inputs, int c, int i, int payload, Counts measured)
            throws Overflow {
        IterationDoc base = inputs.get(0).document().combinations().get(c).iterations().get(i);
        String at = "combinations[" + c + "].iterations[" + i + "].";
        boolean warmup = base.warmup();
        Counts sums = new Counts();
        Histogram latency = LatencyHistograms.newHistogram();
        long wall = 0;
        boolean partial = false;
        boolean open = base.openLoop() != null;
        Histogram uncorrected = open ? LatencyHistograms.newHistogram() : null;
        Histogram sendLag = open ? LatencyHistograms.newHistogram() : null;
        double targetRate = 0;
        boolean reconnects = base.connectLatency() != null;
        Histogram connect = reconnects ? LatencyHistograms.newHistogram() : null;
        boolean handshakes = base.handshakeLatency() != null;
        Histogram handshake = handshakes ? LatencyHistograms.newHistogram() : null;
        Map<Integer, Long> statuses = new TreeMap<>();
        // Bytes in and out are the hosts' sums, known only when every host counted them
        boolean transfer = true;
        // HTTP: the latency by status class, each class's histograms added up (absent where no input has them)
        StatusClassLatency classes = null;
        for (Input input : inputs) {
            IterationDoc p = input.document().combinations().get(c).iterations().get(i);
            latency.add(HistogramCodec.decode(p.histogram()));
            if (p.latencyByStatusClass() != null) {
                if (classes == null) {
                    classes = new StatusClassLatency();
                }
                for (Map.Entry<String, IterationDoc.ConnectLatency> e : p.latencyByStatusClass().entrySet()) {
                    Histogram into = classes.get(e.getKey());
                    if (into != null && e.getValue() != null) {
                        into.add(HistogramCodec.decode(e.getValue().histogram()));
                    }
                }
            }
            p.errors().byClass().statuses().forEach((code, n) -> statuses.merge(code, n, Long::sum));
            for (Map.Entry<String, Long> count : counts(p).entrySet()) {
                String field = count.getKey();
                long v = count.getValue();
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
            if (p.transfer() == null) {
                transfer = false;
            } else {
                sums.add("bytesIn", p.transfer().bytesIn(), input.name(), at + "bytesIn");
                sums.add("bytesOut", p.transfer().bytesOut(), input.name(), at + "bytesOut");
            }
            sums.add("openingHandshakes", p.openingHandshakes(), input.name(), at + "openingHandshakes");
            wall = Math.max(wall, p.wallNs());
            partial |= p.partial();
            if (open) {
                IterationDoc.OpenLoop o = p.openLoop();
                if (o == null) { // cannot be when the loads are equal (the rate is one of them): decoded as before, refused
                    o = new IterationDoc.OpenLoop(0, 0, false, 0, 0, false, Map.of(), Map.of(), "", "");
                }
                uncorrected.add(HistogramCodec.decode(o.uncorrectedHistogram()));
                sendLag.add(HistogramCodec.decode(o.sendLagHistogram()));
                targetRate += o.targetRate();
                if (!Double.isFinite(targetRate)) {
                    throw new Overflow(input.name() + ": " + at + "openLoop.targetRate: the hosts' sum is beyond a "
                            + "double: a damaged document? merge the files nbench client wrote");
                }
                sums.add("sent", o.sent(), input.name(), at + "openLoop.sent");
                sums.add("maxInflightHits", o.maxInflightHits(), input.name(), at + "openLoop.maxInflightHits");
                if (!warmup) {
                    measured.add("maxInflightHits", o.maxInflightHits(), input.name(),
                            at + "openLoop.maxInflightHits");
                }
            }
            if (reconnects && p.connectLatency() != null) {
                connect.add(HistogramCodec.decode(p.connectLatency().histogram()));
            }
            if (handshakes && p.handshakeLatency() != null) {
                handshake.add(HistogramCodec.decode(p.handshakeLatency().histogram()));
                if (p.handshakeLatency().resumed() != null) {
                    sums.add("handshakeLatency.resumed", p.handshakeLatency().resumed(), input.name(),
                            at + "handshakeLatency.resumed");
                }
            }
        }
        long[] errors = new long[ErrorKind.values().length];
        for (ErrorKind k : ErrorKind.values()) {
            errors[k.ordinal()] = sums.get("errors." + k.label());
        }
        OpenLoopFigures openLoop = open ? new OpenLoopFigures(targetRate, sums.get("sent"), sums.get("maxInflightHits"),
                uncorrected, sendLag) : null;
        return new IterationResult(base.index(), warmup, sums.get("messages"), wall, payload,
                latency, new ErrorCounts.Snapshot(errors, statuses), sums.get("clamped"), partial, null, openLoop, connect,
                handshake, handshakes ? sums.get("handshakeLatency.resumed") : 0, classes,
                transfer ? sums.get("bytesIn") : -1, transfer ? sums.get("bytesOut") : -1, sums.get("openingHandshakes"));
    }

    /** The counts of an iteration that merging adds up, by their field in the document, in its order. */
    private static Map<String, Long> counts(IterationDoc it) {
        Map<String, Long> counts = new LinkedHashMap<>();
        counts.put("messages", it.messages());
        counts.put("clamped", it.clamped());
        for (ErrorKind k : ErrorKind.values()) {
            counts.put("errors." + k.label(), it.errors().byClass().get(k));
        }
        return counts;
    }

    /** Exact sums of counts by name; an addition beyond a long names the file and field of the value added. */
    static final class Counts {
        private final Map<String, Long> sums = new HashMap<>();

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
    static CombinationDoc.RunErrors runErrors(List<Input> inputs, int c) throws Overflow {
        Counts sums = new Counts();
        Map<String, String> first = new LinkedHashMap<>();
        Map<String, Long> statuses = new TreeMap<>();
        for (Input input : inputs) {
            CombinationDoc.RunErrors e = input.document().combinations().get(c).errors();
            e.statuses().forEach((code, n) -> statuses.merge(code, n, Long::sum));
            Map<String, Long> counted = new LinkedHashMap<>();
            counted.put("total", e.counts().total());
            for (ErrorKind k : ErrorKind.values()) {
                counted.put(k.label(), e.counts().byClass().get(k));
            }
            counted.put("lateResponses", e.lateResponses());
            counted.put("reconnects", e.reconnects());
            for (Map.Entry<String, Long> field : counted.entrySet()) {
                sums.add(field.getKey(), field.getValue(), input.name(), "combinations[" + c + "].errors."
                        + field.getKey());
            }
            e.first().forEach(first::putIfAbsent);
        }
        long[] byClass = new long[ErrorKind.values().length];
        for (ErrorKind k : ErrorKind.values()) {
            byClass[k.ordinal()] = sums.get(k.label());
        }
        return new CombinationDoc.RunErrors(new ErrorsDoc(sums.get("total"), new ErrorCounts.Snapshot(byClass)),
                sums.get("lateResponses"), sums.get("reconnects"), first, statuses);
    }
}
