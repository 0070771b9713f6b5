package io.nbench.report.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nbench.load.LoadSpec;
import io.nbench.load.Pacing;
import io.nbench.load.RunResult;
import io.nbench.protocol.ClientRequest;
import io.nbench.protocol.Protocol;
import io.nbench.report.CombinationResult;
import io.nbench.report.MeasuredServer;
import io.nbench.report.RunWarnings;
import io.nbench.report.SweepResult;
import io.nbench.report.threshold.Threshold;
import io.nbench.resources.ResourceUsage;
import io.nbench.stats.DrainResult;
import io.nbench.stats.HistogramCodec;
import io.nbench.stats.IterationResult;
import io.nbench.stats.OpenLoopFigures;
import io.nbench.stats.Percentiles;
import io.nbench.stats.StatusClassLatency;
import io.nbench.stats.SteadyState;
import io.nbench.stats.StudentT;
import io.nbench.stats.Summary;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The result document {@code nbench-result/1} of a client run, for {@code --out}, {@code --format json} and the
 * last line of {@code --format ndjson}: the one place that maps a run's results to the typed document
 * ({@link ResultDoc}), which {@link ResultDocWriter} writes and {@link ResultDocReader} reads back.
 * docs/result-schema.md documents every field; a new figure (CPU, GC, open-loop histograms) is one more
 * component of its record, one line here, in the writer and in the reader, and one more row there. Fields are
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
    private MeasuredServer server;
    private Map<String, List<IntervalDoc>> intervals = Map.of();
    private Map<String, ? extends JsonNode> serverStats = Map.of();
    private Map<String, ServerStatsDoc> serverStatsDocs = Map.of();

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
    public ResultDocument intervals(Map<String, List<IntervalDoc>> byCombination) {
        this.intervals = byCombination;
        return this;
    }

    /**
     * Each combination's server figures ({@code nbench client --server-stats}) by combination name, as the
     * client collects them during the run (read when the document is built), written as
     * {@code combinations[].serverStats}; a combination without any gets none.
     */
    public ResultDocument serverStats(Map<String, ? extends JsonNode> byCombination) {
        this.serverStats = byCombination;
        return this;
    }

    /** The same, already typed ({@code nbench run}'s rounds joined); replaces {@link #serverStats}. */
    public ResultDocument serverStatsDocs(Map<String, ServerStatsDoc> byCombination) {
        this.serverStatsDocs = byCombination;
        this.serverStats = Map.of();
        return this;
    }

    /** The run's id (the CSV's {@code run_id}), written as {@code runId}; without it the field is null. */
    public ResultDocument runId(String id) {
        this.runId = id;
        return this;
    }

    /** The server the run measured, written as {@code configuration.server}; without it the field is null. */
    public ResultDocument server(MeasuredServer measured) {
        this.server = measured;
        return this;
    }

    public ObjectNode build(SweepResult sweep) {
        return ResultDocWriter.document(doc(sweep));
    }

    /** The run as the typed document {@link #build} writes. */
    public ResultDoc doc(SweepResult sweep) {
        List<CombinationDoc> combinations = new ArrayList<>();
        for (CombinationResult c : sweep.combinations()) {
            combinations.add(combination(c));
        }
        return new ResultDoc(environment.getOrDefault("nbench", "dev"), runId, sweep.status(), sweep.exitCode(),
                sweep.error(), environment, new ConfigurationDoc(sweep.target(), arguments,
                MAPPER.valueToTree(options), sweep.keys(), server), combinations, null,
                sweep.capacity() == null ? null : CapacityDoc.of(sweep.capacity(), sweep.combinations()),
                sweep.curve() == null ? null : CurveDoc.of(sweep.curve()));
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

    private CombinationDoc combination(CombinationResult c) {
        RunResult run = c.run();
        List<Double> percentiles = run.spec().percentiles();
        List<IterationDoc> iterations = new ArrayList<>();
        for (IterationResult it : run.iterations()) {
            iterations.add(iterationDoc(it, percentiles));
        }
        Map<String, String> first = new LinkedHashMap<>();
        run.firstErrors().forEach((k, v) -> first.put(k.label(), v));
        List<ThresholdDoc> thresholds = new ArrayList<>();
        for (Threshold.Outcome o : c.thresholds()) {
            thresholds.add(threshold(o));
        }
        String name = c.combination().name();
        JsonNode server = serverStats.get(name);
        ServerStatsDoc stats = server != null ? ResultDocReader.serverStats(server) : serverStatsDocs.get(name);
        return new CombinationDoc(c.combination().name(), c.combination().keys(), c.status(), c.exitCode(),
                c.reasons(), new CombinationDoc.Transport(c.transport(), c.transportOptions(), c.transportConfig(),
                        c.tls()),
                new LoadDoc(load(run.spec())), Instant.ofEpochMilli(run.startEpochMillis()).toString(),
                run.abortReason(), run.abortCause() == null ? null : run.abortCause().name().toLowerCase(Locale.ROOT),
                run.interrupted(), iterations, summaryDoc(run.summary(), run.spec().pacing()), drain(run.drain(), percentiles),
                new CombinationDoc.RunErrors(ErrorsDoc.of(run.errors()), run.lateResponses(), run.reconnects(), first,
                        statuses(run)),
                intervals.get(name), stats, thresholds, null);
    }

    /** The run's responses by status code, keyed by the code's text, in order. */
    private static Map<String, Long> statuses(RunResult run) {
        Map<String, Long> byCode = new LinkedHashMap<>();
        run.statuses().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> byCode.put(Integer.toString(e.getKey()), e.getValue()));
        return byCode;
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
            if (value instanceof ClientRequest request) {
                if (request != ClientRequest.NONE) {
                    ObjectNode http = node.putObject("http");
                    http.put("method", request.method());
                    http.put("url", "http://" + request.authority() + request.path());
                    request.headers().forEach(http.putArray("headers")::add);
                    http.put("successStatus", request.success().toString());
                }
                continue;
            }
            if (value instanceof Record group) {
                flatten(group, node);
                continue;
            }
            if (value instanceof Enum<?> e) {
                value = e.name().toLowerCase(Locale.ROOT);
            } else if (value instanceof Protocol p) {
                value = p.label(); // as on the command line, as when it was an enum
            }
            node.set(component.getName(), MAPPER.valueToTree(value));
        }
    }

    /** One iteration as the document writes it (also for a merged document). */
    public static ObjectNode iteration(IterationResult it, List<Double> percentiles) {
        return ResultDocWriter.iteration(iterationDoc(it, percentiles));
    }

    /** One iteration as the typed document holds it. */
    public static IterationDoc iterationDoc(IterationResult it, List<Double> percentiles) {
        OpenLoopFigures o = it.openLoop();
        IterationDoc.OpenLoop open = o == null ? null : new IterationDoc.OpenLoop(o.targetRate(),
                o.achievedRate(it.wallNanos()), o.missed(it.wallNanos()), o.sent(), o.maxInflightHits(),
                OpenLoopFigures.sendLagCaveat(o.sendLag(), it.latency()), percentiles(o.uncorrected(), percentiles),
                percentiles(o.sendLag(), percentiles), HistogramCodec.encode(o.uncorrected()),
                HistogramCodec.encode(o.sendLag()));
        return new IterationDoc(it.index(), it.warmup(), it.messages(), it.wallNanos(), it.messagesPerSecond(),
                it.mibPerSecond(), percentiles(it.latency(), percentiles), ErrorsDoc.of(it.errors()), it.clamped(),
                it.partial(), HistogramCodec.encode(it.latency()), resources(it), open,
                connectLatency(it.connectLatency(), percentiles), handshakeLatency(it, percentiles),
                statusClasses(it.statusClasses(), percentiles), transfer(it), it.openingHandshakes());
    }

    /** The bytes in and out, and their MiB/s; null when unknown (an iteration read from an older document). */
    private static IterationDoc.Transfer transfer(IterationResult it) {
        return !it.transferKnown() ? null : new IterationDoc.Transfer(it.bytesIn(), it.bytesOut(),
                it.mibInPerSecond(), it.mibOutPerSecond());
    }

    /** HTTP: each status class's count, percentiles and histogram, 2xx to 5xx; null otherwise. */
    private static Map<String, IterationDoc.ConnectLatency> statusClasses(StatusClassLatency s,
                                                                          List<Double> percentiles) {
        if (s == null) {
            return null;
        }
        Map<String, IterationDoc.ConnectLatency> m = new LinkedHashMap<>();
        for (int i = 0; i < StatusClassLatency.LABELS.size(); i++) {
            m.put(StatusClassLatency.LABELS.get(i), connectLatency(s.get(i), percentiles));
        }
        return m;
    }

    private static IterationDoc.ConnectLatency connectLatency(Histogram c, List<Double> percentiles) {
        return c == null ? null : new IterationDoc.ConnectLatency(c.getTotalCount(), percentiles(c, percentiles),
                HistogramCodec.encode(c));
    }

    /** The reconnects' TLS handshakes, with how many resumed a session; null without TLS. */
    private static IterationDoc.ConnectLatency handshakeLatency(IterationResult it, List<Double> percentiles) {
        Histogram h = it.handshakeLatency();
        return h == null ? null : new IterationDoc.ConnectLatency(h.getTotalCount(), percentiles(h, percentiles),
                HistogramCodec.encode(h), it.resumedHandshakes());
    }

    /** What completed after a time-based run's last iteration (in no iteration); null for a count-based run. */
    private static DrainDoc drain(DrainResult d, List<Double> percentiles) {
        return d == null ? null : new DrainDoc(d.messages(), d.wallNanos(), percentiles(d.latency(), percentiles),
                ErrorsDoc.of(d.errors()), HistogramCodec.encode(d.latency()));
    }

    /** The client's CPU, GC and allocation and the machine's CPU during one iteration; unknown figures are null. */
    private static IterationDoc.Resources resources(IterationResult it) {
        ResourceUsage u = it.resources();
        if (u == null) {
            return null;
        }
        boolean allocation = u.allocatedBytes() >= 0;
        return new IterationDoc.Resources(number(u.cpuPercent()), u.gcCount(), u.gcMillis(),
                allocation ? u.allocatedBytes() : null,
                allocation ? number(it.allocatedPerMessage() < 0 ? Double.NaN : it.allocatedPerMessage()) : null,
                number(u.machineBusyPercent()), number(u.stealPercent()), number(u.othersPercent()), u.disturbed(),
                u.clientSaturated());
    }

    /** A histogram at the run's percentiles, by label; null values when it is empty (not measured). */
    private static Map<String, Long> percentiles(Histogram h, List<Double> percentiles) {
        Map<String, Long> byLabel = new LinkedHashMap<>();
        for (double p : percentiles) {
            byLabel.put(Percentiles.label(p), h.getTotalCount() == 0 ? null : Percentiles.valueAt(h, p));
        }
        return byLabel;
    }

    /** A summary as the document writes it (also for a merged document). */
    public static ObjectNode summary(Summary s, Pacing pacing) {
        return ResultDocWriter.summary(summaryDoc(s, pacing));
    }

    /** A summary as the typed document holds it; {@code pacing} words the send-lag warning's cause. */
    public static SummaryDoc summaryDoc(Summary s, Pacing pacing) {
        boolean any = s.latencyMeasured(); // else every latency figure is null: not measured, not 0
        Map<String, SummaryDoc.Mean> means = new LinkedHashMap<>();
        for (double p : s.percentiles()) {
            means.put(Percentiles.label(p), mean(s.meanPercentile(p)));
        }
        StudentT.Interval t = s.throughput();
        Histogram uncorrected = s.mergedUncorrected();
        // In the open loop latencyNs is corrected for coordinated omission (from intended send times).
        SummaryDoc.OpenLoop open = uncorrected == null ? null : new SummaryDoc.OpenLoop(
                s.measured().get(0).openLoop().targetRate(),
                number(s.mean(r -> r.openLoop().achievedRate(r.wallNanos()))), s.rateMissedIterations(),
                s.measured().stream().mapToLong(r -> r.openLoop().maxInflightHits()).sum(),
                // The text output's caveat: the median send lag is over 10 % of the corrected median latency.
                OpenLoopFigures.sendLagCaveat(s.mergedSendLag(), s.merged()),
                percentiles(uncorrected, s.percentiles()), percentiles(s.mergedSendLag(), s.percentiles()));
        return new SummaryDoc(s.iterations(), s.messages(),
                new SummaryDoc.Latency(percentiles(s.merged(), s.percentiles()),
                        any ? s.merged().getMinValue() : null, any ? s.merged().getMaxValue() : null,
                        number(any ? s.merged().getMean() : Double.NaN), means),
                new SummaryDoc.Throughput(number(t.mean()), number(t.halfWidth()), t.n(), StudentT.LEVEL,
                        s.mibPerSecond(), number(s.mibInPerSecond()), number(s.mibOutPerSecond())),
                steadyState(s.steadyState()), ErrorsDoc.of(s.errors()), resourceSummary(s), open,
                RunWarnings.of(s, pacing));
    }

    /** The trend test of the measured iterations' throughput: the text summary's "not at steady state" warning. */
    private static SummaryDoc.SteadyState steadyState(SteadyState t) {
        return new SummaryDoc.SteadyState(t.trend().label(), t.rule() == null ? null : t.rule().label(),
                number(t.change()), number(t.changeLow()), number(t.changeHigh()), t.n());
    }

    /** Means (CPU, allocation, machine) and sums (GC) over measured iterations; flags counted. */
    private static SummaryDoc.Resources resourceSummary(Summary s) {
        if (s.measured().stream().anyMatch(r -> r.resources() == null)) {
            return null;
        }
        return new SummaryDoc.Resources(number(s.mean(r -> r.resources().cpuPercent())),
                s.measured().stream().mapToLong(r -> r.resources().gcCount()).sum(),
                s.measured().stream().mapToLong(r -> r.resources().gcMillis()).sum(),
                number(s.mean(IterationResult::allocatedPerMessage)),
                number(s.mean(r -> r.resources().machineBusyPercent())),
                number(s.mean(r -> r.resources().stealPercent())), number(s.mean(r -> r.resources().othersPercent())),
                s.measured().stream().filter(r -> r.resources().disturbed()).count(),
                s.measured().stream().filter(r -> r.resources().clientSaturated()).count());
    }

    /** Mean ± ci is the 99.9 % Student-t interval. */
    private static SummaryDoc.Mean mean(StudentT.Interval i) {
        return new SummaryDoc.Mean(number(i.mean()), number(i.halfWidth()), i.n(), StudentT.LEVEL);
    }

    private static ThresholdDoc threshold(Threshold.Outcome o) {
        Threshold t = o.threshold();
        return new ThresholdDoc(t.expression(), t.metric().name(), t.operator().symbol(), t.limit(),
                number(o.actual()), t.metric().kind().unit(), o.passed(), o.judged());
    }

    /** JSON has no NaN: a figure that cannot be computed is null. */
    private static Double number(double value) {
        return Double.isNaN(value) || Double.isInfinite(value) ? null : value;
    }
}
