package io.nbench.report.csv;

import io.nbench.load.RunListener;
import io.nbench.report.Environment;
import io.nbench.report.MeasuredServer;
import io.nbench.resources.ResourceUsage;
import io.nbench.stats.IterationResult;
import io.nbench.stats.OpenLoopFigures;
import io.nbench.stats.Percentiles;
import io.nbench.stats.StatusClassLatency;
import io.nbench.sweep.Combination;
import io.nbench.transport.ErrorKind;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * {@code --format csv}: one header line (unless {@code --no-header}, for appending to a file across runs)
 * and one row per iteration per combination, printed as each iteration ends. The columns are the same for
 * every run, whatever its mode (closed or open loop, sweep or not, {@code --percentiles}), so rows of different
 * runs appended to one file line up: a figure that does not apply is an empty cell. Latencies in ns. Quoting
 * follows RFC 4180.
 */
public final class CsvReport {

    /** The combination keys that have a column of their own; any other (swept -O keys) goes into {@code options}. */
    public static final List<String> KEY_COLUMNS = List.of("impl", "size", "threads", "window", "rate");

    /**
     * The percentile columns, always these whatever {@code --percentiles} asks (the result document has the
     * requested ones): nbench's default set and p99.99.
     */
    public static final List<Double> PERCENTILES = List.of(25.0, 50.0, 75.0, 90.0, 95.0, 99.0, 99.9, 99.99, 100.0);

    /** The TLS handshake latency's columns: its median, its tail and its maximum. */
    public static final List<Double> HANDSHAKE_PERCENTILES = List.of(50.0, 99.0, 100.0);

    /** Each HTTP status class's latency columns: its median, its tail and its maximum. */
    public static final List<Double> STATUS_CLASS_PERCENTILES = List.of(50.0, 99.0, 100.0);

    private final PrintWriter out;
    private final List<String> keys;
    private final String runId;
    private final String host;
    private final String version;
    private final MeasuredServer server;

    /**
     * @param keys  the run's combination keys ({@code impl}, {@code size}, ... and swept {@code -O} keys)
     * @param runId the id this run's result document carries as {@code runId}
     */
    public CsvReport(PrintWriter out, List<String> keys, String runId) {
        this(out, keys, runId, Environment.host());
    }

    /** @param host the {@code host} column: the machine's name, or {@code --host-label} */
    public CsvReport(PrintWriter out, List<String> keys, String runId, String host) {
        this(out, keys, runId, host, null);
    }

    /** @param server the server measured: the {@code server_*} columns (null: not known, empty cells) */
    public CsvReport(PrintWriter out, List<String> keys, String runId, String host, MeasuredServer server) {
        this.server = server;
        this.out = out;
        this.keys = List.copyOf(keys);
        this.runId = runId;
        this.host = host;
        this.version = Environment.version();
    }

    /** The column names, in order: the same for every run. */
    public static List<String> columns() {
        List<String> c = new ArrayList<>(List.of("run_id", "start_time", "host", "nbench"));
        c.addAll(KEY_COLUMNS);
        c.add("options");
        c.addAll(List.of("iteration", "warmup", "messages", "wall_ns", "msg_per_s", "mib_per_s"));
        for (double p : PERCENTILES) {
            c.add(Percentiles.label(p) + "_ns");
        }
        c.add("errors");
        for (ErrorKind k : ErrorKind.values()) {
            c.add("errors_" + k.label());
        }
        c.add("statuses");
        c.add("reconnects");
        c.add("clamped");
        c.add("partial");
        c.addAll(List.of("cpu_percent", "gc_count", "gc_ms", "alloc_bytes_per_msg", "steal_percent", "disturbed",
                "rate_target", "rate_achieved"));
        // Last, so that rows of runs before these columns existed still line up with the ones before them.
        c.addAll(List.of("handshakes", "handshakes_resumed"));
        for (double p : HANDSHAKE_PERCENTILES) {
            c.add("handshake_" + Percentiles.label(p) + "_ns");
        }
        // HTTP: every response is timed; its latency by status class (empty cells for other protocols)
        for (String cls : StatusClassLatency.LABELS) {
            c.add("status_" + cls);
            for (double p : STATUS_CLASS_PERCENTILES) {
                c.add("status_" + cls + "_" + Percentiles.label(p) + "_ns");
            }
        }
        // Bytes received and sent, whole on the wire, and the TLS handshakes of the connections opened before the
        // first iteration (in the first measured iteration's row)
        c.addAll(List.of("bytes_in", "bytes_out", "mib_in_per_s", "mib_out_per_s", "opening_handshakes"));
        // The server measured (the document's configuration.server): its transport empty when not known
        c.addAll(List.of("server_transport", "server_protocol", "server_address"));
        // With --find-rate or --rate-sweep, each open-loop step is a point of the curve: why it fell short (the
        // curve point's cause), on its last measured row, as warnings are
        c.add("step_cause");
        c.add("warnings");
        return c;
    }

    public void header() {
        row(columns());
    }

    /**
     * One combination's rows. The summary's warnings and a curve step's cause are known only once the
     * combination ends, so the row of its last measured iteration (the one numbered {@code iterations}, or the
     * partial one a stopped run ends with) waits for {@link #finish}, which prints it with the cause in its
     * {@code step_cause} cell and the warnings in its {@code warnings} cell (joined by " | "); every other row is
     * printed as its iteration ends, with those cells empty.
     */
    public final class Rows implements RunListener {
        private final RunListener printer;
        private final int iterations;
        private List<String> last;

        private Rows(RunListener printer, int iterations) {
            this.printer = printer;
            this.iterations = iterations;
        }

        @Override
        public void onStarted(long startEpochMillis) {
            printer.onStarted(startEpochMillis);
        }

        @Override
        public void onReconnect() {
            printer.onReconnect();
        }

        @Override
        public void onIteration(IterationResult r) {
            printer.onIteration(r);
        }

        private void row(List<String> cells, IterationResult r) {
            if (last != null) { // not the last after all (a row after a partial one: only ever in a test's script)
                last.addAll(List.of("", ""));
                CsvReport.this.row(last);
                last = null;
            }
            if (!r.warmup() && (r.index() == iterations || r.partial())) {
                last = cells;
            } else {
                cells.addAll(List.of("", ""));
                CsvReport.this.row(cells);
            }
        }

        /**
         * The combination ended: its last measured row, with {@code stepCause} (empty when the combination is not
         * a point of a curve) and {@code warnings}.
         */
        public void finish(String stepCause, List<String> warnings) {
            if (last != null) {
                last.add(stepCause);
                last.add(String.join(" | ", warnings));
                CsvReport.this.row(last);
                last = null;
            }
        }
    }

    /**
     * The listener that prints one combination's rows.
     *
     * @param iterations the combination's measured iterations ({@code --iterations})
     */
    public Rows forCombination(Combination combination, int iterations) {
        Rows[] rows = new Rows[1];
        rows[0] = new Rows(printer(combination, rows), iterations);
        return rows[0];
    }

    private RunListener printer(Combination combination, Rows[] rows) {
        List<String> head = new ArrayList<>(List.of(runId, "", host, version));
        for (String k : KEY_COLUMNS) {
            String v = combination.get(k);
            head.add(v == null ? "" : v);
        }
        StringBuilder options = new StringBuilder();
        for (String k : keys) {
            String v = combination.get(k);
            if (!KEY_COLUMNS.contains(k) && v != null) { // an -O key the transport does not own is left out
                options.append(options.length() > 0 ? ";" : "").append(k).append('=').append(v);
            }
        }
        head.add(options.toString());
        return new RunListener() {
            /** Reopened echo connections since the last row (the watchdog reports them, the coordinator prints). */
            private final AtomicLong reconnects = new AtomicLong();

            @Override
            public void onStarted(long startEpochMillis) {
                head.set(1, Instant.ofEpochMilli(startEpochMillis).toString());
            }

            @Override
            public void onReconnect() {
                reconnects.incrementAndGet();
            }

            @Override
            public void onIteration(IterationResult r) {
                List<String> cells = new ArrayList<>(head);
                cells.add(Integer.toString(r.index()));
                cells.add(Boolean.toString(r.warmup()));
                cells.add(Long.toString(r.messages()));
                cells.add(Long.toString(r.wallNanos()));
                cells.add(String.format(Locale.ROOT, "%.1f", r.messagesPerSecond()));
                cells.add(String.format(Locale.ROOT, "%.3f", r.mibPerSecond()));
                for (double p : PERCENTILES) {
                    // no completed message, no latency: an empty cell, as for other unknown figures
                    cells.add(r.messages() == 0 ? "" : Long.toString(r.percentile(p)));
                }
                cells.add(Long.toString(r.errors().total()));
                for (ErrorKind k : ErrorKind.values()) {
                    cells.add(Long.toString(r.errors().get(k)));
                }
                cells.add(statuses(r.errors().statuses()));
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
                handshakes(cells, r);
                statusClasses(cells, r);
                transfer(cells, r);
                cells.add(server == null || server.transport() == null ? "" : server.transport());
                cells.add(server == null || server.protocol() == null ? "" : server.protocol());
                cells.add(server == null || server.address() == null ? "" : server.address());
                rows[0].row(cells, r);
            }
        };
    }

    /**
     * With {@code --tls} and connections replaced during the run: the iteration's handshakes, how many resumed a
     * session, and their latency; empty cells otherwise (and the percentiles when no handshake was made).
     */
    private static void handshakes(List<String> cells, IterationResult r) {
        Histogram h = r.handshakeLatency();
        cells.add(h == null ? "" : Long.toString(h.getTotalCount()));
        cells.add(h == null ? "" : Long.toString(r.resumedHandshakes()));
        for (double p : HANDSHAKE_PERCENTILES) {
            cells.add(h == null || h.getTotalCount() == 0 ? "" : Long.toString(Percentiles.valueAt(h, p)));
        }
    }

    /** The bytes in and out and their MiB/s (empty when unknown), and the opening handshakes. */
    private static void transfer(List<String> cells, IterationResult r) {
        boolean known = r.transferKnown();
        cells.add(known ? Long.toString(r.bytesIn()) : "");
        cells.add(known ? Long.toString(r.bytesOut()) : "");
        cells.add(known ? String.format(Locale.ROOT, "%.3f", r.mibInPerSecond()) : "");
        cells.add(known ? String.format(Locale.ROOT, "%.3f", r.mibOutPerSecond()) : "");
        cells.add(Long.toString(r.openingHandshakes()));
    }

    /** HTTP: each status class's response count and latency; empty cells for other protocols. */
    private static void statusClasses(List<String> cells, IterationResult r) {
        for (int i = 0; i < StatusClassLatency.LABELS.size(); i++) {
            Histogram h = r.statusClasses() == null ? null : r.statusClasses().get(i);
            cells.add(h == null ? "" : Long.toString(h.getTotalCount()));
            for (double p : STATUS_CLASS_PERCENTILES) {
                cells.add(h == null || h.getTotalCount() == 0 ? "" : Long.toString(Percentiles.valueAt(h, p)));
            }
        }
    }

    /**
     * The iteration's responses by HTTP status code in one cell, {@code 200=9990;404=10} (codes in order, only
     * those seen; empty for other protocols). One cell rather than a column per code or per class: the columns
     * stay the same whatever the server answered, the exact codes are kept (a 404 is not a 401), and the
     * {@code key=value;key=value} form is the {@code options} column's, so one split reads both.
     */
    static String statuses(Map<Integer, Long> byCode) {
        StringBuilder cell = new StringBuilder();
        byCode.forEach((code, n) -> cell.append(cell.length() > 0 ? ";" : "").append(code).append('=').append(n));
        return cell.toString();
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
