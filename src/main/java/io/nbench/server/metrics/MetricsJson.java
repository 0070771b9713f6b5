package io.nbench.server.metrics;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nbench.stats.HistogramCodec;
import java.time.Instant;
import org.HdrHistogram.Histogram;

/**
 * The monitor's {@code metrics json}: one line, shape {@value #FORMAT} (documented field by field in
 * docs/server.md). Times in ns, sizes in bytes. The cumulative processing and queue-wait histograms are
 * encoded too, so that a client can subtract two snapshots without ever resetting the server.
 */
public final class MetricsJson {

    public static final String FORMAT = "nbench-server-metrics-1";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    /**
     * The server the figures are of: its transport's name and its protocol's label, so that a client reading them
     * ({@code --server-stats}) records which server it measured.
     */
    public record Server(String transport, String protocol) {
    }

    private MetricsJson() {
    }

    public static String line(MetricsSnapshot s, long resetEpochMillis, Server server) {
        return toJson(s, resetEpochMillis, server).toString();
    }

    /** Of a server that does not say what it is ({@code "server": null}). */
    public static String line(MetricsSnapshot s, long resetEpochMillis) {
        return line(s, resetEpochMillis, null);
    }

    /** @param server the server the figures are of; null: not said ({@code "server": null}) */
    public static ObjectNode toJson(MetricsSnapshot s, long resetEpochMillis, Server server) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("format", FORMAT);
        if (server == null) {
            root.putNull("server");
        } else {
            root.putObject("server").put("transport", server.transport()).put("protocol", server.protocol());
        }
        root.put("time", Instant.ofEpochMilli(s.epochMillis()).toString());
        root.put("openConnections", s.openConnections());
        root.put("inProgress", s.sinceStart().inProgress());
        ObjectNode start = counts(root.putObject("sinceStart"), s.sinceStart(), s.sinceStartHistograms());
        ObjectNode encoded = start.putObject("encoded");
        encoded.put("processingNanos", HistogramCodec.encode(s.sinceStartHistograms().processing()));
        encoded.put("queueWaitNanos", HistogramCodec.encode(s.sinceStartHistograms().queueWait()));
        ObjectNode reset = root.putObject("sinceReset");
        reset.put("resetTime", Instant.ofEpochMilli(resetEpochMillis).toString());
        counts(reset, s.sinceReset(), s.sinceResetHistograms());
        ObjectNode recent = root.putObject("last10s");
        Counters r = s.last10s();
        recent.put("nanos", r.nanos());
        recent.put("requestsPerSecond", r.perSecond(r.requests()));
        recent.put("rejectedPerSecond", r.perSecond(r.rejected()));
        recent.put("bytesInPerSecond", r.perSecond(r.bytesIn()));
        recent.put("bytesOutPerSecond", r.perSecond(r.bytesOut()));
        putPercent(recent, "cpuPercent", r.cpuPercent());
        return root;
    }

    private static ObjectNode counts(ObjectNode node, Counters c, Histograms h) {
        node.put("nanos", c.nanos());
        node.put("received", c.received());
        node.put("requests", c.requests());
        node.put("rejected", c.rejected());
        node.put("dropped", c.dropped());
        node.put("droppedAtShutdown", c.droppedAtShutdown());
        node.put("bytesIn", c.bytesIn());
        node.put("bytesOut", c.bytesOut());
        node.put("connections", c.connections());
        node.put("protocolErrors", c.protocolErrors());
        node.put("idleClosed", c.idleClosed());
        node.put("refused", c.refused());
        if (c.cpuNanos() < 0) {
            node.putNull("cpuNanos");
        } else {
            node.put("cpuNanos", c.cpuNanos());
        }
        putPercent(node, "cpuPercent", c.cpuPercent());
        node.put("gcCount", c.gcCount());
        node.put("gcMillis", c.gcMillis());
        node.put("requestsPerSecond", c.perSecond(c.requests()));
        summary(node.putObject("processingNanos"), h.processing());
        summary(node.putObject("queueWaitNanos"), h.queueWait());
        summary(node.putObject("requestBytes"), h.requestSize());
        summary(node.putObject("responseBytes"), h.responseSize());
        return node;
    }

    /** count, min, mean, p50, p90, p99, p999, max; an empty histogram has count 0 and zeros. */
    public static ObjectNode summary(ObjectNode node, Histogram h) {
        boolean empty = h.getTotalCount() == 0;
        node.put("count", h.getTotalCount());
        node.put("min", empty ? 0 : h.getMinValue());
        node.put("mean", empty ? 0 : h.getMean());
        node.put("p50", h.getValueAtPercentile(50));
        node.put("p90", h.getValueAtPercentile(90));
        node.put("p99", h.getValueAtPercentile(99));
        node.put("p999", h.getValueAtPercentile(99.9));
        node.put("max", h.getMaxValue());
        return node;
    }

    private static void putPercent(ObjectNode node, String field, double value) {
        if (Double.isNaN(value)) {
            node.putNull(field);
        } else {
            node.put(field, value);
        }
    }
}
