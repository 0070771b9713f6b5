package io.nbench.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nbench.client.monitor.MonitorClient;
import io.nbench.load.RunListener;
import io.nbench.report.json.ResultDocWriter;
import io.nbench.report.json.ServerStatsDoc;
import io.nbench.stats.HistogramCodec;
import io.nbench.stats.IterationResult;
import io.nbench.units.Units;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * {@code nbench client --server-stats}: the server's own figures over each measured iteration, beside the
 * client's. It takes a {@code metrics json} snapshot when the run starts and at the end of every iteration
 * (warmup included, so each measured iteration has the snapshot at its start), and reports the difference
 * of the cumulative figures: requests, CPU, GC, and the processing-time and queue-wait percentiles from
 * the difference of the cumulative histograms. It never resets the server's counters, which others may be
 * watching. A snapshot is one round trip on the monitor's connection, taken on the run's coordinating
 * thread right after the iteration's figures were cut: the load goes on meanwhile.
 *
 * <p>If the monitor goes away mid-run, the benchmark goes on: one line on stderr, and the document says
 * why the later iterations have no server figures.
 */
public final class ServerStats implements AutoCloseable {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final MonitorClient client;
    private final PrintWriter err;
    private final Map<String, ObjectNode> byCombination = new LinkedHashMap<>();
    private String error;
    /** The server as its monitor names it; null when it does not (an older server). */
    private final ClientSpec.Server server;

    /**
     * Takes one snapshot and differences it with itself at once: a monitor that does not answer
     * {@code metrics json} fails here, before the run, and the first snapshot at an iteration boundary does
     * not pay for loading the JSON and histogram classes (a fraction of a second late otherwise).
     */
    public ServerStats(MonitorClient client, PrintWriter err) throws MonitorClient.Failure {
        this.client = client;
        this.err = err;
        try {
            JsonNode first = MAPPER.readTree(client.metricsJson());
            line(difference(first, first, 0));
            server = ClientSpec.Server.named(first.path("server").path("transport").textValue(),
                    first.path("server").path("protocol").textValue());
        } catch (IOException | RuntimeException e) {
            client.close();
            throw new MonitorClient.Failure("the monitor at " + client.where() + " gave no usable 'metrics json' ("
                    + e.getMessage() + "): is it an nbench server of this version?");
        }
    }

    /** The server as its monitor names it ({@code metrics json}'s {@code server}); null when it does not. */
    public ClientSpec.Server server() {
        return server;
    }

    /** Each combination's {@code serverStats} object for the result document, by combination name. */
    public Map<String, ObjectNode> byCombination() {
        return byCombination;
    }

    /**
     * The listener of one combination.
     *
     * @param text where the line under each measured iteration goes (null: none, e.g. --format json)
     */
    public RunListener forCombination(String combination, PrintWriter text) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("monitor", client.where());
        node.putNull("error");
        ArrayNode iterations = node.putArray("iterations");
        byCombination.put(combination, node);
        return new RunListener() {
            private JsonNode previous;

            @Override
            public void onStarted(long startEpochMillis) {
                previous = snapshot(node);
            }

            @Override
            public void onIteration(IterationResult r) {
                JsonNode now = snapshot(node);
                if (!r.warmup() && previous != null && now != null) {
                    ServerStatsDoc.Iteration d;
                    try {
                        d = difference(previous, now, r.index());
                    } catch (RuntimeException e) {
                        // Figures that go backwards (the server restarted) or a reply of another shape: the
                        // benchmark matters more than its server figures.
                        stop(node, "the server's figures cannot be compared (" + e.getMessage()
                                + "): was it restarted?");
                        return;
                    }
                    iterations.add(ResultDocWriter.serverIteration(d));
                    if (text != null) {
                        text.println(line(d));
                        text.flush();
                    }
                }
                previous = now;
            }
        };
    }

    private JsonNode snapshot(ObjectNode node) {
        if (error != null) {
            node.put("error", error);
            return null;
        }
        try {
            return MAPPER.readTree(client.metricsJson());
        } catch (IOException e) {
            stop(node, e.getMessage());
            return null;
        }
    }

    /** No more server figures in this run: one line on stderr, the reason in the document. */
    private void stop(ObjectNode node, String why) {
        error = "server stats stopped: " + why;
        node.put("error", error);
        err.println("nbench client: " + error + " (the run goes on without them)");
        err.flush();
    }

    /**
     * What the server did between two {@code metrics json} snapshots (the monitor's document: its keys are
     * {@code MetricsJson}'s), as the result document's {@code serverStats} iteration of that index.
     */
    public static ServerStatsDoc.Iteration difference(JsonNode a, JsonNode b, int index) {
        JsonNode x = a.get("sinceStart");
        JsonNode y = b.get("sinceStart");
        long nanos = y.get("nanos").asLong() - x.get("nanos").asLong();
        Double cpuPercent = x.get("cpuNanos").isNull() || y.get("cpuNanos").isNull() || nanos <= 0 ? null
                : (y.get("cpuNanos").asLong() - x.get("cpuNanos").asLong()) * 100.0 / nanos;
        return new ServerStatsDoc.Iteration(index, nanos, delta(x, y, "requests"), delta(x, y, "rejected"),
                delta(x, y, "protocolErrors"), delta(x, y, "connections"), delta(x, y, "bytesIn"),
                delta(x, y, "bytesOut"), cpuPercent, delta(x, y, "gcCount"), delta(x, y, "gcMillis"),
                ServerStatsDoc.Timing.of(histogramDifference(x, y, "processingNanos")),
                ServerStatsDoc.Timing.of(histogramDifference(x, y, "queueWaitNanos")));
    }

    private static long delta(JsonNode x, JsonNode y, String counter) {
        return y.get(counter).asLong() - x.get(counter).asLong();
    }

    private static Histogram histogramDifference(JsonNode x, JsonNode y, String name) {
        Histogram end = HistogramCodec.decode(y.get("encoded").get(name).asText());
        Histogram start = HistogramCodec.decode(x.get("encoded").get(name).asText());
        end.setAutoResize(true);
        end.subtract(start);
        return end;
    }

    /** The text line under an iteration. */
    public static String line(ServerStatsDoc.Iteration d) {
        if (d.requests() == 0 && d.bytesOut() > 0) {
            // Echo: bytes, no requests (nothing to time but the CPU).
            return String.format(Locale.ROOT, "  server: %s MiB echoed, CPU %s, GC %,d (%,d ms)",
                    Units.mib(d.bytesOut() / (1024.0 * 1024)), cpu(d), d.gcCount(), d.gcMillis());
        }
        return String.format(Locale.ROOT, "  server: %s requests, processing %s, queue wait %s, rejected %,d, CPU %s, "
                        + "GC %,d (%,d ms)",
                Units.count(d.requests()), brief(d.processingNanos()), brief(d.queueWaitNanos()), d.rejected(), cpu(d),
                d.gcCount(), d.gcMillis());
    }

    private static String cpu(ServerStatsDoc.Iteration d) {
        return d.cpuPercent() == null ? "-" : String.format(Locale.ROOT, "%.0f%%", d.cpuPercent());
    }

    private static String brief(ServerStatsDoc.Timing s) {
        if (s.count() == 0) {
            return "-";
        }
        return "p50 " + Units.micros(s.p50()) + " p99 " + Units.micros(s.p99()) + " max " + Units.micros(s.max())
                + " µs";
    }

    @Override
    public void close() {
        client.close();
    }
}
