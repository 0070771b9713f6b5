package io.nbench.server.metrics;

import io.nbench.units.Units;
import java.time.Instant;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/** The server's metrics as text: the report (exit, monitor {@code metrics}) and the periodic one-line report. */
public final class MetricsText {

    /** The report's percentiles: those of the usual metrics reporters an operator knows (median to 99.9). */
    private static final double[] PERCENTILES = {50, 75, 95, 98, 99, 99.9};

    private MetricsText() {
    }

    /**
     * The first line: every counter, as the server has always printed on exit. With {@code sinceReset} the
     * figures since the last reset, else since start.
     */
    public static String countsLine(MetricsSnapshot s, boolean sinceReset) {
        Counters c = sinceReset ? s.sinceReset() : s.sinceStart();
        return String.format(Locale.ROOT, "server metrics %s %.1f s: connections %,d total (%,d open), requests %,d, "
                        + "bytes in %,d, bytes out %,d, protocol errors %,d, idle closed %,d%s",
                sinceReset ? "since reset," : "after", c.nanos() / 1e9, c.connections(), s.openConnections(),
                c.requests(), c.bytesIn(), c.bytesOut(), c.protocolErrors(), c.idleClosed(),
                c.refused() > 0 ? String.format(Locale.ROOT, ", refused (--max-connections) %,d", c.refused()) : "");
    }

    /** The full report: the counts line, the histograms as a table, rates, CPU and GC. */
    public static String report(MetricsSnapshot s, boolean sinceReset, long resetEpochMillis) {
        Counters c = sinceReset ? s.sinceReset() : s.sinceStart();
        Histograms h = sinceReset ? s.sinceResetHistograms() : s.sinceStartHistograms();
        StringBuilder b = new StringBuilder(countsLine(s, sinceReset)).append('\n');
        b.append(accountsLine(c, s.sinceStart().inProgress())).append('\n');
        if (sinceReset) {
            b.append("  since ").append(Instant.ofEpochMilli(resetEpochMillis)).append(", taken ")
                    .append(Instant.ofEpochMilli(s.epochMillis())).append('\n');
        }
        b.append(String.format(Locale.ROOT, "  %-47s %11s %9s %9s", "", "count", "min", "mean"));
        for (double p : PERCENTILES) {
            b.append(String.format(Locale.ROOT, " %9s", p == 50 ? "median" : label(p) + "%"));
        }
        b.append(String.format(Locale.ROOT, " %9s%n", "max"));
        row(b, "processing, µs (frame decoded to response sent)", h.processing(), true);
        row(b, "queue wait, µs (pool hand-off to pool thread)", h.queueWait(), true);
        row(b, "request size, bytes", h.requestSize(), false);
        row(b, "response size, bytes", h.responseSize(), false);
        Counters recent = s.last10s();
        b.append(String.format(Locale.ROOT, "  rates: %s requests/s, %s MiB/s in, %s MiB/s out (over %.1f s); "
                        + "last 10 s: %s requests/s%n",
                Units.rate(c.perSecond(c.requests())), Units.mib(c.perSecond(c.bytesIn()) / (1 << 20)),
                Units.mib(c.perSecond(c.bytesOut()) / (1 << 20)), c.nanos() / 1e9,
                Units.rate(recent.perSecond(recent.requests()))));
        b.append(String.format(Locale.ROOT, "  rejected (pool queue full): %,d (%s/s)%n", c.rejected(),
                Units.rate(c.perSecond(c.rejected()))));
        b.append(String.format(Locale.ROOT, "  process: CPU %s of one core (last 10 s: %s), GC %,d collections, %,d ms",
                percent(c.cpuPercent()), percent(recent.cpuPercent()), c.gcCount(), c.gcMillis()));
        return b.toString();
    }

    /**
     * Where every request received went: "requests received 200: answered 4, rejected 0, dropped at shutdown
     * 196, dropped on close 0, in progress 0". In progress is the gauge now (at exit, 0: the stop settles it).
     */
    static String accountsLine(Counters c, long inProgress) {
        return String.format(Locale.ROOT, "  requests received %,d: answered %,d, rejected %,d, dropped at shutdown %,d, "
                + "dropped on close %,d, in progress %,d", c.received(), c.requests(), c.rejected(),
                c.droppedAtShutdown(), c.dropped(), inProgress);
    }

    /** One line per {@code --report-interval}: rate, processing time, queue wait, rejections, connections, CPU. */
    public static String intervalLine(Measurements.Interval i, long openConnections, long sinceStartNanos) {
        Counters c = i.counts();
        return String.format(Locale.ROOT, "nbench server: +%.1fs %s req/s, processing %s, queue wait %s, "
                        + "rejected %,d, connections %,d open, CPU %s",
                sinceStartNanos / 1e9, Units.rate(c.perSecond(c.requests())), brief(i.processing()),
                brief(i.queueWait()), c.rejected(), openConnections, percent(c.cpuPercent()));
    }

    /** p50/p99/max in µs, or "-" when nothing was recorded. */
    private static String brief(Histogram h) {
        if (h.getTotalCount() == 0) {
            return "-";
        }
        return "p50 " + Units.micros(h.getValueAtPercentile(50)) + " p99 " + Units.micros(h.getValueAtPercentile(99))
                + " max " + Units.micros(h.getMaxValue()) + " µs";
    }

    private static void row(StringBuilder b, String name, Histogram h, boolean nanos) {
        b.append(String.format(Locale.ROOT, "  %-47s %11s", name, Units.count(h.getTotalCount())));
        if (h.getTotalCount() == 0) {
            b.append(String.format(Locale.ROOT, " %9s%n", "-"));
            return;
        }
        b.append(String.format(Locale.ROOT, " %9s %9s", value(h.getMinValue(), nanos), value(h.getMean(), nanos)));
        for (double p : PERCENTILES) {
            b.append(String.format(Locale.ROOT, " %9s", value(h.getValueAtPercentile(p), nanos)));
        }
        b.append(String.format(Locale.ROOT, " %9s%n", value(h.getMaxValue(), nanos)));
    }

    private static String value(double v, boolean nanos) {
        return nanos ? Units.micros(v) : String.format(Locale.ROOT, "%,.0f", v);
    }

    private static String label(double p) {
        return p == Math.rint(p) ? Long.toString((long) p) : Double.toString(p);
    }

    private static String percent(double p) {
        return Double.isNaN(p) ? "-" : String.format(Locale.ROOT, "%.0f%%", p);
    }
}
