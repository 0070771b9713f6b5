package io.nbench.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nbench.client.monitor.MonitorClient;
import io.nbench.load.RunListener;
import io.nbench.server.metrics.MetricsJson;
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
            line(difference(first, first));
        } catch (IOException | RuntimeException e) {
            client.close();
            throw new MonitorClient.Failure("the monitor at " + client.where() + " gave no usable 'metrics json' ("
                    + e.getMessage() + "): is it an nbench server of this version?");
        }
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
                    ObjectNode d;
                    try {
                        d = difference(previous, now);
                    } catch (RuntimeException e) {
                        // Figures that go backwards (the server restarted) or a reply of another shape: the
                        // benchmark matters more than its server figures.
                        stop(node, "the server's figures cannot be compared (" + e.getMessage()
                                + "): was it restarted?");
                        return;
                    }
                    d.put("index", r.index());
                    iterations.add(d);
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

    /** What the server did between two {@code metrics json} snapshots. */
    public static ObjectNode difference(JsonNode a, JsonNode b) {
        JsonNode x = a.get("sinceStart");
        JsonNode y = b.get("sinceStart");
        ObjectNode d = MAPPER.createObjectNode();
        d.put("index", 0);
        long nanos = y.get("nanos").asLong() - x.get("nanos").asLong();
        d.put("nanos", nanos);
        for (String f : new String[] {"requests", "rejected", "protocolErrors", "connections", "bytesIn", "bytesOut"}) {
            d.put(f, y.get(f).asLong() - x.get(f).asLong());
        }
        if (x.get("cpuNanos").isNull() || y.get("cpuNanos").isNull() || nanos <= 0) {
            d.putNull("cpuPercent");
        } else {
            d.put("cpuPercent", (y.get("cpuNanos").asLong() - x.get("cpuNanos").asLong()) * 100.0 / nanos);
        }
        d.put("gcCount", y.get("gcCount").asLong() - x.get("gcCount").asLong());
        d.put("gcMillis", y.get("gcMillis").asLong() - x.get("gcMillis").asLong());
        MetricsJson.summary(d.putObject("processingNanos"), histogramDifference(x, y, "processingNanos"));
        MetricsJson.summary(d.putObject("queueWaitNanos"), histogramDifference(x, y, "queueWaitNanos"));
        return d;
    }

    private static Histogram histogramDifference(JsonNode x, JsonNode y, String name) {
        Histogram end = HistogramCodec.decode(y.get("encoded").get(name).asText());
        Histogram start = HistogramCodec.decode(x.get("encoded").get(name).asText());
        end.setAutoResize(true);
        end.subtract(start);
        return end;
    }

    /** The text line under an iteration. */
    public static String line(JsonNode d) {
        if (d.get("requests").asLong() == 0 && d.path("bytesOut").asLong() > 0) {
            // Echo: bytes, no requests (nothing to time but the CPU).
            return String.format(Locale.ROOT, "  server: %s MiB echoed, CPU %s, GC %,d (%,d ms)",
                    Units.mib(d.get("bytesOut").asLong() / (1024.0 * 1024)), cpu(d), d.get("gcCount").asLong(),
                    d.get("gcMillis").asLong());
        }
        return String.format(Locale.ROOT, "  server: %s requests, processing %s, queue wait %s, rejected %,d, CPU %s, "
                        + "GC %,d (%,d ms)",
                Units.count(d.get("requests").asLong()), brief(d.get("processingNanos")), brief(d.get("queueWaitNanos")),
                d.get("rejected").asLong(), cpu(d),
                d.get("gcCount").asLong(), d.get("gcMillis").asLong());
    }

    private static String cpu(JsonNode d) {
        return d.get("cpuPercent").isNull() ? "-" : String.format(Locale.ROOT, "%.0f%%", d.get("cpuPercent").asDouble());
    }

    private static String brief(JsonNode s) {
        if (s.get("count").asLong() == 0) {
            return "-";
        }
        return "p50 " + Units.micros(s.get("p50").asDouble()) + " p99 " + Units.micros(s.get("p99").asDouble())
                + " max " + Units.micros(s.get("max").asDouble()) + " µs";
    }

    @Override
    public void close() {
        client.close();
    }
}
