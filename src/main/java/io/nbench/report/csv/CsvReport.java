package io.nbench.report.csv;

import io.nbench.load.RunListener;
import io.nbench.resources.ResourceUsage;
import io.nbench.stats.IterationResult;
import io.nbench.stats.OpenLoopFigures;
import io.nbench.stats.Percentiles;
import io.nbench.sweep.Combination;
import io.nbench.transport.ErrorKind;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code --format csv}: one header line (unless {@code --no-header}, for appending to a file across runs)
 * and one row per iteration per combination, printed as each iteration ends. Columns: the combination
 * keys, then iteration figures; latencies in ns. Quoting follows RFC 4180.
 */
public final class CsvReport {

    private final PrintWriter out;
    private final List<String> keys;
    private final List<Double> percentiles;

    public CsvReport(PrintWriter out, List<String> keys, List<Double> percentiles) {
        this.out = out;
        this.keys = List.copyOf(keys);
        this.percentiles = List.copyOf(percentiles);
    }

    /** The column names, in order. */
    public List<String> columns() {
        List<String> c = new ArrayList<>(keys);
        c.addAll(List.of("iteration", "warmup", "messages", "wall_ns", "msg_per_s", "mib_per_s"));
        for (double p : percentiles) {
            c.add(Percentiles.label(p) + "_ns");
        }
        c.add("errors");
        for (ErrorKind k : ErrorKind.values()) {
            c.add("errors_" + k.label());
        }
        c.add("reconnects");
        c.add("clamped");
        c.add("partial");
        c.addAll(List.of("cpu_percent", "gc_count", "gc_ms", "alloc_bytes_per_msg", "steal_percent", "disturbed",
                "rate_target", "rate_achieved"));
        return c;
    }

    public void header() {
        row(columns());
    }

    /** The listener that prints one combination's rows. */
    public RunListener forCombination(Combination combination) {
        return new RunListener() {
            /** Reopened echo connections since the last row (the watchdog reports them, the coordinator prints). */
            private final java.util.concurrent.atomic.AtomicLong reconnects = new java.util.concurrent.atomic.AtomicLong();

            @Override
            public void onReconnect() {
                reconnects.incrementAndGet();
            }

            @Override
            public void onIteration(IterationResult r) {
                List<String> cells = new ArrayList<>();
                for (String k : keys) {
                    String v = combination.get(k);
                    cells.add(v == null ? "" : v); // an -O key the transport does not own
                }
                cells.add(Integer.toString(r.index()));
                cells.add(Boolean.toString(r.warmup()));
                cells.add(Long.toString(r.messages()));
                cells.add(Long.toString(r.wallNanos()));
                cells.add(String.format(Locale.ROOT, "%.1f", r.messagesPerSecond()));
                cells.add(String.format(Locale.ROOT, "%.3f", r.mibPerSecond()));
                for (double p : percentiles) {
                    // no completed message, no latency: an empty cell, as for other unknown figures
                    cells.add(r.messages() == 0 ? "" : Long.toString(r.percentile(p)));
                }
                cells.add(Long.toString(r.errors().total()));
                for (ErrorKind k : ErrorKind.values()) {
                    cells.add(Long.toString(r.errors().get(k)));
                }
                cells.add(Long.toString(reconnects.getAndSet(0)));
                cells.add(Long.toString(r.clamped()));
                cells.add(Boolean.toString(r.partial()));
                ResourceUsage u = r.resources();
                cells.add(u == null ? "" : decimal(u.cpuPercent()));
                cells.add(u == null ? "" : Long.toString(u.gcCount()));
                cells.add(u == null ? "" : Long.toString(u.gcMillis()));
                cells.add(decimal(r.allocatedPerMessage()));
                cells.add(u == null ? "" : decimal(u.stealPercent()));
                cells.add(u == null ? "" : Boolean.toString(u.disturbed()));
                OpenLoopFigures o = r.openLoop();
                cells.add(o == null ? "" : decimal(o.targetRate()));
                cells.add(o == null ? "" : decimal(o.achievedRate(r.wallNanos())));
                row(cells);
            }
        };
    }

    /** One decimal; unknown (NaN or negative, as the resource figures mark it) is an empty cell. */
    private static String decimal(double v) {
        return Double.isNaN(v) || v < 0 ? "" : String.format(Locale.ROOT, "%.1f", v);
    }

    private void row(List<String> cells) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < cells.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(quote(cells.get(i)));
        }
        out.println(sb);
        out.flush();
    }

    /** RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled. */
    static String quote(String field) {
        if (field.indexOf(',') < 0 && field.indexOf('"') < 0 && field.indexOf('\n') < 0 && field.indexOf('\r') < 0) {
            return field;
        }
        return '"' + field.replace("\"", "\"\"") + '"';
    }
}
