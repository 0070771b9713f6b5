package io.nbench.report;

import io.nbench.load.LoadSpec;
import io.nbench.load.Measure;
import io.nbench.load.Pacing;
import io.nbench.load.RunListener;
import io.nbench.load.RunResult;
import io.nbench.protocol.ClientRequest;
import io.nbench.protocol.SuccessStatuses;
import io.nbench.protocol.http.HttpClientCodec;
import io.nbench.report.compare.ResultFile;
import io.nbench.resources.ResourceUsage;
import io.nbench.stats.DrainResult;
import io.nbench.stats.ErrorCounts;
import io.nbench.stats.IterationResult;
import io.nbench.stats.LatencyHistograms;
import io.nbench.stats.OpenLoopFigures;
import io.nbench.stats.Percentiles;
import io.nbench.stats.StatusClassLatency;
import io.nbench.stats.SteadyState;
import io.nbench.stats.StudentT;
import io.nbench.stats.Summary;
import io.nbench.transport.ErrorKind;
import io.nbench.transport.TlsSession;
import io.nbench.units.Durations;
import io.nbench.units.Sizes;
import io.nbench.units.Units;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.function.DoubleFunction;
import java.util.function.Supplier;

/**
 * The text output: a header with environment and configuration, one line per iteration as it ends, and
 * the SUMMARY block, in the shape of the hand-written benchmarks nbench replaces.
 */
public final class TextReport implements RunListener {

    private static final String RULE = "================================================";

    private final PrintWriter out;
    private final LoadSpec spec;
    private final boolean quiet;
    private final int total;
    private final int columns;

    private Supplier<TlsSession> tlsSession;

    public TextReport(PrintWriter out, LoadSpec spec, boolean quiet) {
        this(out, spec, quiet, 0);
    }

    /**
     * @param columns the terminal's text width (each iteration as lines of at most this many columns), or 0
     *                for the one-line form of pipes and files
     */
    public TextReport(PrintWriter out, LoadSpec spec, boolean quiet, int columns) {
        this.columns = columns;
        this.out = out;
        this.spec = spec;
        this.quiet = quiet;
        this.total = spec.warmup() + spec.iterations();
    }

    /**
     * With --tls: once every connection is open, a header line says what the first handshake negotiated (only then
     * is it known). {@code session} gives null without TLS.
     */
    public void tlsOnConnect(Supplier<TlsSession> session) {
        this.tlsSession = session;
    }

    @Override
    public void onConnected(int connections) {
        TlsSession s = tlsSession == null ? null : tlsSession.get();
        if (s != null) {
            out.println("  tls: " + s.describe());
            out.flush();
        }
    }

    /**
     * The header; {@code transport} is e.g. "netty" and {@code transportConfig} its effective settings;
     * {@code httpParser} what reads its HTTP responses (printed for HTTP only).
     */
    public void header(String target, String transport, Map<String, String> transportConfig, String writtenEvent,
                       String httpParser) {
        Map<String, String> env = Environment.capture();
        out.println("nbench " + env.get("nbench") + " client: " + transport + " -> " + target + ", protocol "
                + spec.protocol().label());
        out.println("  transport: " + joinMap(transportConfig));
        out.println("  jvm: " + env.get("jvm") + "; flags: " + env.get("jvm-flags"));
        out.println("  machine: " + env.get("cpu") + "; " + env.get("os"));
        String load = spec.timeBased()
                ? Durations.format(Duration.ofNanos(spec.iterationNanos())) + " per iteration"
                : spec.timing().msgsInAll() > 0 ? Units.count(spec.messagesPerIteration()) + " msgs per iteration in all"
                : Units.count(spec.msgsPerThread()) + " msgs/thread per iteration ("
                + Units.count(spec.messagesPerIteration()) + " in all)";
        if (spec.openLoop()) {
            out.println("  load: open loop, " + Units.rate(spec.rate()) + " msg/s over " + spec.connections()
                    + " connections (" + Units.rate(spec.rate() / spec.connections()) + " each), paced by "
                    + pacers() + ", max " + spec.maxInflight() + " in flight per connection, " + load);
            out.println("  latency corrected for coordinated omission: from each message's intended send time; "
                    + "uncorrected: from its actual send (corrected minus send lag); send lag: actual - intended");
        } else {
            out.println("  load: closed loop, driver " + spec.driver().label() + ", " + spec.threads() + " threads, "
                    + spec.connections() + " connections, window " + spec.window() + ", " + load
                    + (spec.batch() > 0 ? ", batches of " + spec.batch() + " per thread" : ""));
        }
        if (spec.churn() || spec.connectRate() > 0) {
            out.println("  connections: " + (spec.churn() ? "reconnect after " + spec.requestsPerConnection()
                    + " request(s)" : "kept") + (spec.connectRate() > 0 ? ", opened at most "
                    + Units.rate(spec.connectRate()) + "/s" : ""));
        }
        out.println("  message: " + messageShape(spec) + "; measure " + spec.measure().label()
                + (spec.measure() == Measure.SEND ? " (" + writtenEvent + ")" : " (request hand-off to response complete)")
                + "; verify " + spec.verify().label() + "; timeout " + Durations.format(Duration.ofNanos(spec.timeoutNanos())));
        if (spec.protocol().httpMessages()) {
            out.println("  http parser: " + httpParser);
        }
        out.println("  iterations: " + spec.warmup() + " warmup + " + spec.iterations()
                + " measured; latency in µs; MiB/s in: the responses received, out: the requests sent, whole on the "
                + "wire (" + (spec.protocol().httpMessages() ? "status line, headers and body" : "header and payload")
                + ")");
        out.println("  " + PlanLine.of(spec));
        out.flush();
    }

    /**
     * What each message is: request and response sizes, or for HTTP the request line and its body (the
     * response is the server's, of its own size); a body the user gave by its exact length.
     */
    private static String messageShape(LoadSpec spec) {
        ClientRequest r = spec.request();
        if (r == ClientRequest.NONE) {
            return "request " + Sizes.format(spec.size()) + ", response "
                    + (spec.expectsResponse() ? Sizes.format(spec.responseSize()) : "none (one-way)");
        }
        int body = spec.requestPayloadBytes();
        String sent = r.body() == null ? "body " + (body == 0 ? "none" : Sizes.format(body))
                // --body, --body-file: with a method that carries none by default, the header says so
                : (HttpClientCodec.sizedBody(r.method()) ? "body of "
                : "a " + r.method() + " carrying a body of ") + body + " bytes, sent as given";
        return r.method() + " http://" + r.authority() + r.path() + ", " + sent
                + ", response the server's (counted by status, not verified)";
    }

    private static String joinMap(Map<String, String> m) {
        StringJoiner j = new StringJoiner(", ");
        m.forEach((k, v) -> j.add(k + "=" + v));
        return j.toString();
    }

    @Override
    public void onIteration(IterationResult r) {
        if (quiet) {
            return;
        }
        String label = (r.warmup() ? "Warmup " : "Iteration ") + r.index() + "/" + (r.warmup() ? spec.warmup() : spec.iterations());
        String head = String.format("%-16s", label + ":") + String.format("%12s msgs %8s s %10s msg/s in %7s out %7s MiB/s",
                Units.count(r.messages()), Units.seconds(r.wallNanos()), Units.rate(r.messagesPerSecond()),
                Units.mib(r.mibInPerSecond()), Units.mib(r.mibOutPerSecond()));
        StringJoiner latency = new StringJoiner(" ");
        if (r.messages() == 0) {
            latency.add(NOT_MEASURED);
        }
        for (double p : r.messages() == 0 ? List.<Double>of() : spec.percentiles()) {
            latency.add(Percentiles.label(p) + " " + Units.micros(r.percentile(p)));
        }
        String errors = "errors " + errors(r.errors(), spec.request().success());
        StringJoiner rest = new StringJoiner(" | ");
        if (r.openLoop() != null) {
            OpenLoopFigures o = r.openLoop();
            StringBuilder sb = new StringBuilder();
            sb.append("rate ").append(Units.rate(o.achievedRate(r.wallNanos()))).append('/')
                    .append(Units.rate(o.targetRate()))
                    .append(o.below(r.wallNanos()) ? " MISSED" : o.above(r.wallNanos()) ? " OVER" : "")
                    .append(" uncorrected ").append(brief(o.uncorrected(), 50, 99, 100))
                    .append(" lag ").append(brief(o.sendLag(), 99, 100));
            if (o.maxInflightHits() > 0) {
                sb.append(" inflight-cap waits ").append(Units.count(o.maxInflightHits()));
            }
            rest.add(sb);
        }
        if (r.connectLatency() != null) {
            rest.add("connects " + Units.count(r.connectLatency().getTotalCount())
                    + " p50 " + Units.micros(Percentiles.valueAt(r.connectLatency(), 50))
                    + " p99 " + Units.micros(Percentiles.valueAt(r.connectLatency(), 99)));
        }
        if (r.handshakeLatency() != null) {
            rest.add("handshakes " + Units.count(r.handshakeLatency().getTotalCount())
                    + " (" + Units.count(r.resumedHandshakes()) + " resumed)"
                    + " p50 " + Units.micros(Percentiles.valueAt(r.handshakeLatency(), 50))
                    + " p99 " + Units.micros(Percentiles.valueAt(r.handshakeLatency(), 99)));
        }
        if (r.openingHandshakes() > 0) { // the first measured iteration: the handshakes of the run's first connections
            rest.add("opening handshakes " + Units.count(r.openingHandshakes()));
        }
        rest.add(resources(r));
        String partial = r.partial() ? " (partial)" : "";
        if (columns > 0) {
            // A terminal: the figures, then indented lines of latency and of the other figures, none wider
            // than the terminal's text width.
            out.println(head + " | " + errors + partial);
            Tty.wrap(latency.toString(), columns, "    ", "    ").forEach(out::println);
            Tty.wrap(rest.toString(), columns, "    ", "    ").forEach(out::println);
        } else {
            // A pipe or file: one line per iteration, as scripts read it.
            out.println(head + " | " + latency + " | " + errors + " | " + rest + partial);
        }
        out.flush();
    }

    public void summary(RunResult result) {
        Summary s = result.summary();
        out.println(RULE);
        out.println("SUMMARY RESULTS");
        out.println(RULE);
        warn(RunWarnings.leftOut(s));
        warn(RunWarnings.stretched(s));
        if (s.iterations() == 0) {
            out.println("No measured iteration completed.");
        } else {
            List<Double> ps = spec.percentiles();
            Measured m = new Measured(s.iterations(), s.messages(), s.merged(), s::meanPercentile, s.throughput());
            merged(out, m, "", spec.openLoop() ? ", corrected for coordinated omission" : "", ps);
            if (spec.openLoop()) {
                String lag = RunWarnings.sendLag(s, spec.pacing());
                if (lag != null) {
                    out.println("Caveat: " + lag);
                }
                out.println("Uncorrected, from each message's actual send (corrected minus send lag: lower only where "
                        + "sends went out late, held by --max-inflight or by nbench's lag):");
                out.println(percentiles(s.mergedUncorrected(), ps));
                out.println("Send lag (actual - intended send time, nbench's own lateness):");
                out.println(percentiles(s.mergedSendLag(), ps));
                out.println("Rate: " + Units.rate(s.mean(r -> r.openLoop().achievedRate(r.wallNanos()))) + " msg/s achieved of "
                        + Units.rate(spec.rate()) + " target" + (s.rateMissedIterations() > 0
                        ? "; MISSED by more than 1% in " + s.rateMissedText() : "")
                        + "; in-flight cap waits " + Units.count(s.measured().stream()
                        .mapToLong(r -> r.openLoop().maxInflightHits()).sum()));
            }
            if (spec.replacesConnections()) {
                org.HdrHistogram.Histogram connects = LatencyHistograms.newHistogram();
                s.measured().forEach(r -> connects.add(r.connectLatency()));
                out.println("Reconnects: " + Units.count(connects.getTotalCount()) + ", connect latency "
                        + percentiles(connects, ps));
            }
            if (s.measured().stream().anyMatch(r -> r.handshakeLatency() != null || r.openingHandshakes() > 0)) {
                handshakes(out, s.measured(), ps);
            }
            statusClasses(out, s.measured(), ps);
            means(out, m, "", ps);
            StudentT.Interval tp = s.throughput();
            out.println(throughput(tp) + ", in " + Units.mib(s.mibInPerSecond()) + " out " + Units.mib(s.mibOutPerSecond())
                    + " MiB/s");
            warn(RunWarnings.wideInterval(s));
            warn(RunWarnings.notSteady(s));
            out.println("Client: cpu " + percent(s.mean(r -> r.resources().cpuPercent())) + " of one core"
                    + (spec.openLoop() && spec.pacing() == Pacing.SPIN ? " (with " + pacers() + ")" : "") + ", gc "
                    + s.measured().stream().mapToLong(r -> r.resources().gcCount()).sum() + " collections ("
                    + s.measured().stream().mapToLong(r -> r.resources().gcMillis()).sum() + " ms), alloc "
                    + bytesOrNa(s.mean(IterationResult::allocatedPerMessage)) + "/msg; machine steal "
                    + percent(s.mean(r -> r.resources().stealPercent())) + ", others "
                    + percent(s.mean(r -> r.resources().othersPercent())) + " of all cores");
            warn(RunWarnings.disturbed(s));
            warn(RunWarnings.saturated(s));
            if (s.iterations() < 2) {
                out.println("Note: one measured iteration gives no interval; use --iterations 2 or more.");
            }
        }
        drain(result.drain());
        long clamped = result.iterations().stream().mapToLong(IterationResult::clamped).sum();
        if (clamped > 0) {
            out.println("Note: " + Units.count(clamped) + " value(s) beyond the histogram's range (1 hour) were recorded "
                    + "as its maximum.");
        }
        errorLines(result);
        out.println(RULE);
        out.flush();
    }

    /**
     * The summary in a few lines, for {@code nbench run} without {@code --verbose}, whose comparison shows the
     * latencies and CPU: the throughput with its interval, every warning, the errors when there are any.
     */
    public void brief(RunResult result) {
        Summary s = result.summary();
        warn(RunWarnings.leftOut(s));
        warn(RunWarnings.stretched(s));
        if (s.iterations() == 0) {
            out.println("No measured iteration completed.");
        } else {
            out.println(throughput(s.throughput()) + ", in " + Units.mib(s.mibInPerSecond()) + " out "
                    + Units.mib(s.mibOutPerSecond()) + " MiB/s");
            warn(RunWarnings.wideInterval(s));
            warn(RunWarnings.notSteady(s));
            warn(RunWarnings.disturbed(s));
            warn(RunWarnings.saturated(s));
        }
        if (result.errors().total() > 0 || result.lateResponses() > 0 || result.reconnects() > 0
                || !result.statuses().isEmpty()) {
            errorLines(result); // else "Errors: 0", which the result line and each round's line say already
        }
        out.flush();
    }

    /** The errors, late responses and reopened connections; HTTP's statuses; each kind's first error. */
    private void errorLines(RunResult result) {
        out.println("Errors: " + errors(result.errors(), spec.request().success()) + (result.lateResponses() > 0
                ? "; late responses (after their timeout) " + Units.count(result.lateResponses()) : "")
                + (result.reconnects() > 0 ? "; connections reopened " + Units.count(result.reconnects())
                + (result.spec().protocol().responsesVerifiable() ? " after an echo timeout (first-in first-out "
                + "matching)" : " after the server closed them") : ""));
        if (!result.statuses().isEmpty()) {
            StringBuilder line = new StringBuilder("Responses by status (whole run):");
            new TreeMap<>(result.statuses()).forEach((code, n) -> line.append(' ').append(code).append(" x")
                    .append(Units.count(n)));
            out.println(line);
        }
        for (Map.Entry<ErrorKind, String> e : result.firstErrors().entrySet()) {
            out.println("  first " + e.getKey().label() + " error: " + e.getValue());
        }
    }

    private void warn(String warning) {
        if (warning != null) {
            out.println("Warning: " + warning);
        }
    }

    /**
     * A time-based run's drain, when it brought anything in: responses still outstanding when the last
     * iteration was cut, which are in no iteration and no figure above (those were final when printed).
     */
    private void drain(DrainResult d) {
        if (d == null || !d.any()) {
            return;
        }
        out.println("Drain after the last iteration (in no iteration): " + Units.count(d.messages()) + " msgs in "
                + Units.seconds(d.wallNanos()) + " s, " + brief(d.latency(), 50, 100) + " µs, errors "
                + errors(d.errors(), spec.request().success()));
    }

    /**
     * What the central lines of a summary are computed from: the measured iterations, merged and one by one.
     *
     * @param meanPercentile each percentile's mean over the iterations in which a message completed, with its
     *                       99.9% interval
     * @param throughput     the mean throughput (msg/s) with its 99.9% interval
     */
    private record Measured(int iterations, long messages, org.HdrHistogram.Histogram merged,
                            DoubleFunction<StudentT.Interval> meanPercentile,
                            StudentT.Interval throughput) {
    }

    /** {@code All N iterations[ of all forks] merged (M msgs)[, corrected ...]:} and the merged percentiles. */
    private static void merged(PrintWriter out, Measured m, String scope, String qualifier, List<Double> ps) {
        String head = "All " + m.iterations() + " iterations" + scope + " merged (";
        if (m.merged().getTotalCount() > 0) {
            out.println(head + Units.count(m.messages()) + " msgs)" + qualifier + ":");
            out.println(percentiles(m.merged(), ps));
        } else { // no completed message: no latency, not a latency of 0
            out.println(head + "0 msgs): " + NOT_MEASURED);
        }
    }

    /** Each percentile's mean with its 99.9% interval; returns whether one is wider than 10% of its mean. */
    private static boolean means(PrintWriter out, Measured m, String scope, List<Double> ps) {
        StringJoiner means = new StringJoiner(", ");
        boolean wide = false;
        int withLatency = 0;
        for (double p : ps) {
            StudentT.Interval ci = m.meanPercentile().apply(p);
            means.add(Percentiles.label(p) + ": " + Units.micros(ci.mean()) + " µs ± " + halfWidth(ci.halfWidth()));
            wide |= ci.widerThan(0.10);
            withLatency = ci.n();
        }
        String head = "Mean Result for " + m.iterations() + " iterations" + scope + " (99.9% CI";
        if (withLatency == 0) {
            out.println(head + "): " + NOT_MEASURED);
        } else {
            out.println(head + (withLatency < m.iterations() ? "; latency from the " + withLatency
                    + " in which a message completed" : "") + "):");
            out.println(means);
        }
        return wide;
    }

    /** {@code Throughput: X ± Y msg/s (99.9% CI, N=n)}. */
    private static String throughput(StudentT.Interval tp) {
        return "Throughput: " + Units.rate(tp.mean()) + " ± "
                + (Double.isNaN(tp.halfWidth()) ? "n/a" : Units.rate(tp.halfWidth()))
                + " msg/s (99.9% CI, N=" + tp.n() + ")";
    }

    /**
     * {@code nbench client --forks}: one block per combination over the measured iterations of every fork, in
     * the lines of a single run's summary (the figures a result document keeps: latency and throughput).
     *
     * @param byCombination each combination's measured iterations from every fork, by its name, in run order
     */
    public static void forksSummary(PrintWriter out, int completed, int forks,
                                     Map<String, List<ResultFile.IterationData>> byCombination, List<Double> ps) {
        out.println(RULE);
        out.println("FORKS SUMMARY: " + completed + " of " + forks + " forks completed");
        out.println(RULE);
        for (Map.Entry<String, List<ResultFile.IterationData>> e : byCombination.entrySet()) {
            List<ResultFile.IterationData> its = e.getValue();
            if (byCombination.size() > 1) {
                out.println(e.getKey() + ":");
            }
            if (its.isEmpty()) {
                out.println("No measured iteration completed.");
                continue;
            }
            org.HdrHistogram.Histogram merged = LatencyHistograms.newHistogram();
            its.forEach(i -> merged.add(i.latency()));
            List<ResultFile.IterationData> withLatency = its.stream().filter(i -> i.latency().getTotalCount() > 0)
                    .toList();
            Measured m = new Measured(its.size(), merged.getTotalCount(), merged,
                    p -> StudentT.interval(withLatency.stream()
                            .mapToDouble(i -> Percentiles.valueAt(i.latency(), p)).toArray()),
                    StudentT.interval(its.stream().mapToDouble(ResultFile.IterationData::msgPerSec).toArray()));
            merged(out, m, " of all forks", "", ps);
            means(out, m, " of all forks", ps);
            out.println(throughput(m.throughput()));
        }
        out.println(RULE);
    }

    /** Client CPU (% of one core), GC, allocation per message, machine steal and others; flags. */
    static String resources(IterationResult r) {
        ResourceUsage u = r.resources();
        StringBuilder sb = new StringBuilder();
        sb.append("cpu ").append(Double.isNaN(u.cpuPercent()) ? "n/a" : Math.round(u.cpuPercent()) + "%");
        sb.append(" gc ").append(u.gcCount()).append('/').append(u.gcMillis()).append("ms");
        double alloc = r.allocatedPerMessage();
        sb.append(" alloc ").append(alloc < 0 ? "n/a" : Units.bytes(alloc)).append("/msg");
        if (!Double.isNaN(u.stealPercent())) {
            sb.append(" steal ").append(Math.round(u.stealPercent())).append("% others ")
                    .append(Math.round(u.othersPercent())).append('%');
        }
        if (u.disturbed()) {
            sb.append(" DISTURBED");
        }
        if (u.clientSaturated()) {
            sb.append(" CLIENT-SATURATED");
        }
        return sb.toString();
    }

    /** {@code p50 12.3 p99 45.6 max 78.9} (µs), or "not measured" when nothing was recorded. */
    private static String brief(org.HdrHistogram.Histogram h, double... ps) {
        if (h.getTotalCount() == 0) {
            return "not measured";
        }
        StringJoiner j = new StringJoiner(" ");
        for (double p : ps) {
            j.add((p >= 100 ? "max" : Percentiles.label(p)) + " " + Units.micros(Percentiles.valueAt(h, p)));
        }
        return j.toString();
    }

    /** The pacer threads and how they wait: "4 threads" or "2 spinning pacer threads (--pacer spin: ...)". */
    private String pacers() {
        int n = Math.min(spec.threads(), spec.connections());
        return spec.pacing() == Pacing.SPIN ? n + " spinning pacer thread" + (n == 1 ? "" : "s") + " (--pacer spin: "
                + "each keeps a core busy)" : n + " threads";
    }

    /** Said of a latency when no message completed: there is none to report, and 0 would read as perfect. */
    static final String NOT_MEASURED = "latency not measured";

    /**
     * With --tls and reconnects: the handshakes of the measured iterations, how many resumed an earlier session
     * (--tls-resumption), per second of their wall time (with --requests-per-connection 1, a handshake per request),
     * and their latency, which is part of the connect's.
     */
    private static void handshakes(PrintWriter out, List<IterationResult> measured, List<Double> ps) {
        org.HdrHistogram.Histogram handshakes = LatencyHistograms.newHistogram();
        long wallNanos = 0;
        long resumed = 0;
        long opening = 0;
        for (IterationResult r : measured) {
            opening += r.openingHandshakes();
            if (r.handshakeLatency() != null) {
                handshakes.add(r.handshakeLatency());
                wallNanos += r.wallNanos();
                resumed += r.resumedHandshakes();
            }
        }
        double perSecond = wallNanos == 0 ? 0 : handshakes.getTotalCount() * 1e9 / wallNanos;
        // Every connection opened made one: the first ones as the run opened them, then each reconnect's.
        // The rate and the latency are the reconnects' (the opening ones were timed by no iteration).
        out.println("TLS handshakes: " + Units.count(opening + handshakes.getTotalCount()) + " (" + Units.count(resumed)
                + " resumed), " + Units.rate(perSecond) + "/s, handshake latency (part of the connect) "
                + percentiles(handshakes, ps) + (opening > 0 ? "; " + Units.count(opening)
                + " of them opened the run's first connections, before the first iteration" : ""));
    }

    private static String percentiles(org.HdrHistogram.Histogram h, List<Double> ps) {
        if (h.getTotalCount() == 0) {
            return "not measured";
        }
        StringJoiner j = new StringJoiner(", ");
        for (double p : ps) {
            j.add((p >= 100 ? "max" : Percentiles.label(p)) + ": " + Units.micros(Percentiles.valueAt(h, p)) + " µs");
        }
        return j.toString();
    }

    private static String percent(double v) {
        return Double.isNaN(v) ? "n/a" : Math.round(v) + "%";
    }

    private static String bytesOrNa(double v) {
        return Double.isNaN(v) || v < 0 ? "n/a" : Units.bytes(v);
    }

    private static String halfWidth(double nanos) {
        return Double.isNaN(nanos) ? "n/a" : Units.micros(nanos);
    }

    /**
     * {@code 0}, or the total and its kinds ({@code 12 (timeout=2 status 503 x10)}): status errors by their codes,
     * the codes that are not a success in {@code success}.
     */
    /**
     * HTTP: the measured responses' latency by status class (each class seen), every response being timed:
     * {@code 4xx: 10 responses, p50 ...}.
     */
    private static void statusClasses(PrintWriter out, List<IterationResult> measured, List<Double> ps) {
        StatusClassLatency all = StatusClassLatency.sum(
                measured.stream().map(IterationResult::statusClasses).toList());
        if (all == null) {
            return;
        }
        out.println("Latency by status class (every response is timed):");
        for (int i = 0; i < StatusClassLatency.LABELS.size(); i++) {
            org.HdrHistogram.Histogram h = all.get(i);
            if (h.getTotalCount() > 0) {
                out.println("  " + StatusClassLatency.LABELS.get(i) + ": "
                        + Units.count(h.getTotalCount()) + " responses, " + percentiles(h, ps));
            }
        }
    }

    static String errors(ErrorCounts.Snapshot errors, SuccessStatuses success) {
        if (errors.total() == 0) {
            return "0";
        }
        StringJoiner j = new StringJoiner(" ", Units.count(errors.total()) + " (", ")");
        boolean[] successes = success.table();
        errors.nonZero().forEach((k, v) -> {
            StringJoiner codes = new StringJoiner(" ");
            if (k == ErrorKind.STATUS) {
                errors.statuses().forEach((code, n) -> {
                    if (code < 0 || code >= successes.length || !successes[code]) {
                        codes.add(code + " x" + Units.count(n));
                    }
                });
            }
            j.add(codes.length() == 0 ? k.label() + "=" + Units.count(v) : k.label() + " " + codes);
        });
        return j.toString();
    }
}
