package io.nbench.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import io.nbench.capacity.Capacity;
import io.nbench.report.csv.CsvReport;
import io.nbench.stats.HistogramCodec;
import io.nbench.transport.ErrorKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;

/**
 * The one place that says what every {@code --format csv} column must hold: for each column, the result
 * document's field it repeats and, where the figure can be worked out without nbench's code, the same
 * figure computed independently (from the decoded histograms and from the load that was asked for). A
 * column this table does not cover fails {@link #check}: a new column cannot go unchecked.
 */
public final class CsvColumns {

    /** One CSV row and the document, combination and iteration it must agree with. */
    public record Row(JsonNode doc, JsonNode combination, JsonNode iteration) {

        JsonNode load() {
            return combination.path("load");
        }

        JsonNode resources() {
            return iteration.path("resources");
        }

        JsonNode openLoop() {
            return iteration.path("openLoop");
        }

        long messages() {
            return iteration.path("messages").asLong();
        }

        long wallNs() {
            return iteration.path("wallNs").asLong();
        }

        Histogram latency() {
            return HistogramCodec.decode(iteration.path("histogram").asText());
        }

        /** The TLS handshakes of the connections replaced during the iteration; a missing node without them. */
        JsonNode handshakes() {
            return iteration.path("handshakeLatency");
        }

        Histogram handshakeLatency() {
            return HistogramCodec.decode(handshakes().path("histogram").asText());
        }
    }

    /**
     * @param json        the cell as the document's field gives it, or null where the document has no such
     *                    per-iteration field (checked over the run by {@link #RUN_TOTALS} instead)
     * @param independent the cell worked out from the histograms or the load asked for, or null where the
     *                    figure exists only as nbench measured it (a start time, a CPU share)
     */
    record Column(Function<Row, String> json, Function<Row, String> independent) {
    }

    private static final Map<String, Column> FIXED = new LinkedHashMap<>();

    /** Columns whose document field is a run total: the column summed over the run's rows must equal it. */
    private static final Map<String, Function<JsonNode, Long>> RUN_TOTALS = Map.of(
            "reconnects", c -> c.path("errors").path("reconnects").asLong());

    private static final Pattern PERCENTILE = Pattern.compile("(p[0-9.]+)_ns");
    private static final Pattern ERROR_KIND = Pattern.compile("errors_(.+)");

    static {
        FIXED.put("run_id", new Column(r -> r.doc().path("runId").asText(), null));
        FIXED.put("start_time", new Column(r -> r.combination().path("startTime").asText(), null));
        FIXED.put("host", new Column(r -> r.doc().path("environment").path("host").asText(), null));
        FIXED.put("nbench", new Column(r -> r.doc().path("nbench").asText(), null));
        FIXED.put("impl", new Column(r -> key(r, "impl"), r -> r.combination().path("transport").path("name").asText()));
        FIXED.put("size", new Column(r -> key(r, "size"), r -> asked(r, "size", "size")));
        FIXED.put("threads", new Column(r -> key(r, "threads"), r -> asked(r, "threads", "threads")));
        FIXED.put("window", new Column(r -> key(r, "window"), r -> asked(r, "window", "window")));
        FIXED.put("rate", new Column(r -> key(r, "rate"), r -> asked(r, "rate", "rate")));
        FIXED.put("options", new Column(CsvColumns::otherKeys, null));
        FIXED.put("iteration", new Column(r -> r.iteration().path("index").asText(), null));
        FIXED.put("warmup", new Column(r -> r.iteration().path("warmup").asText(), null));
        FIXED.put("messages", new Column(r -> r.iteration().path("messages").asText(),
                r -> Long.toString(r.latency().getTotalCount())));
        FIXED.put("wall_ns", new Column(r -> r.iteration().path("wallNs").asText(), null));
        FIXED.put("msg_per_s", new Column(r -> decimal(r.iteration().path("msgPerSec"), 1),
                r -> format(r.messages() * 1e9 / r.wallNs(), 1)));
        FIXED.put("mib_per_s", new Column(r -> decimal(r.iteration().path("mibPerSec"), 3),
                r -> format(r.messages() * 1e9 / r.wallNs() * requestBody(r.load()) / (1024.0 * 1024.0), 3)));
        FIXED.put("errors", new Column(r -> r.iteration().path("errors").path("total").asText(), r -> {
            long sum = 0;
            for (ErrorKind k : ErrorKind.values()) {
                sum += r.iteration().path("errors").path(k.label()).asLong();
            }
            return Long.toString(sum);
        }));
        // The cell repeats the iteration's errors.statuses; check() adds the rows up against the run's.
        FIXED.put("statuses", new Column(r -> statuses(r.iteration().path("errors").path("statuses")), null));
        FIXED.put("reconnects", new Column(null, null));
        FIXED.put("clamped", new Column(r -> r.iteration().path("clamped").asText(), null));
        FIXED.put("partial", new Column(r -> r.iteration().path("partial").asText(), null));
        FIXED.put("cpu_percent", new Column(r -> decimal(r.resources().path("cpuPercent"), 1), null));
        FIXED.put("gc_count", new Column(r -> text(r.resources().path("gcCount")), null));
        FIXED.put("gc_ms", new Column(r -> text(r.resources().path("gcMillis")), null));
        FIXED.put("alloc_bytes_per_msg", new Column(r -> decimal(r.resources().path("allocatedPerMessage"), 1),
                r -> r.resources().path("allocatedBytes").isNumber() && r.messages() > 0
                        ? format((double) r.resources().path("allocatedBytes").asLong() / r.messages(), 1) : ""));
        FIXED.put("steal_percent", new Column(r -> decimal(r.resources().path("stealPercent"), 1), null));
        FIXED.put("disturbed", new Column(r -> text(r.resources().path("disturbed")), null));
        FIXED.put("rate_target", new Column(r -> decimal(r.openLoop().path("targetRate"), 1),
                r -> r.load().path("rate").asDouble() > 0 ? format(r.load().path("rate").asDouble(), 1) : ""));
        FIXED.put("rate_achieved", new Column(r -> decimal(r.openLoop().path("achievedRate"), 1),
                r -> r.openLoop().isObject() ? format(r.openLoop().path("sent").asLong() * 1e9 / r.wallNs(), 1) : ""));
        FIXED.put("handshakes", new Column(r -> text(r.handshakes().path("count")),
                r -> r.handshakes().isObject() ? Long.toString(r.handshakeLatency().getTotalCount()) : ""));
        FIXED.put("handshakes_resumed", new Column(r -> text(r.handshakes().path("resumed")), null));
        FIXED.put("bytes_in", new Column(r -> text(r.iteration().path("bytesIn")), null));
        FIXED.put("bytes_out", new Column(r -> text(r.iteration().path("bytesOut")), null));
        FIXED.put("mib_in_per_s", new Column(r -> decimal(r.iteration().path("mibInPerSec"), 3),
                r -> !r.iteration().path("bytesIn").isNumber() ? "" // not counted: an iteration read from an older document
                        : format(r.iteration().path("bytesIn").asLong() * 1e9 / r.wallNs() / (1024.0 * 1024.0), 3)));
        FIXED.put("mib_out_per_s", new Column(r -> decimal(r.iteration().path("mibOutPerSec"), 3),
                r -> !r.iteration().path("bytesOut").isNumber() ? "" // not counted: an iteration read from an older document
                        : format(r.iteration().path("bytesOut").asLong() * 1e9 / r.wallNs() / (1024.0 * 1024.0), 3)));
        FIXED.put("opening_handshakes", new Column(r -> Long.toString(r.iteration().path("openingHandshakes").asLong()),
                null));
        // The server measured: configuration.server's, an empty cell when not known (transport null, or an older
        // document without it); its address is the client's target
        FIXED.put("server_transport", new Column(r -> text(r.doc().path("configuration").path("server").path("transport")),
                null));
        FIXED.put("server_protocol", new Column(r -> text(r.doc().path("configuration").path("server").path("protocol")),
                null));
        FIXED.put("server_address", new Column(r -> text(r.doc().path("configuration").path("server").path("address")),
                r -> r.doc().path("configuration").path("server").isObject()
                        ? r.doc().path("configuration").path("target").asText() : ""));
        // A curve's step (--find-rate, --rate-sweep): its point's cause, on the row of its last measured iteration.
        FIXED.put("step_cause", new Column(r -> lastMeasured(r) ? curveCause(r) : "", null));
        // The combination's summary.warnings, joined by " | ", on the row of its last measured iteration only.
        FIXED.put("warnings", new Column(r -> lastMeasured(r) ? String.join(" | ", texts(r.combination()
                .path("summary").path("warnings"))) : "", null));
    }

    /** The cause of the curve point (the document's curve or capacity.curve) of the row's combination; "" if none. */
    private static String curveCause(Row r) {
        String name = r.combination().path("name").asText();
        for (JsonNode curve : List.of(r.doc().path("curve"), r.doc().path("capacity").path("curve"))) {
            for (JsonNode p : curve) {
                if (p.path("combination").asText().equals(name)) {
                    return p.path("cause").asText();
                }
            }
        }
        return "";
    }

    private static boolean lastMeasured(Row r) {
        JsonNode last = null;
        for (JsonNode it : r.combination().path("iterations")) {
            if (!it.path("warmup").asBoolean()) {
                last = it;
            }
        }
        return last == r.iteration();
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(t -> texts.add(t.asText()));
        return texts;
    }

    private static final Pattern HANDSHAKE_PERCENTILE = Pattern.compile("handshake_(p[0-9.]+)_ns");
    private static final Pattern STATUS_CLASS = Pattern.compile("status_([1-5]xx)");
    private static final Pattern STATUS_CLASS_PERCENTILE = Pattern.compile("status_([1-5]xx)_(p[0-9.]+)_ns");

    private CsvColumns() {
    }

    /** The mapping for one CSV column: fixed names, a percentile ({@code p99.9_ns}), an error kind. */
    static Column column(String name) {
        Column c = FIXED.get(name);
        if (c != null) {
            return c;
        }
        Matcher p = PERCENTILE.matcher(name);
        if (p.matches()) {
            String label = p.group(1);
            double percentile = Double.parseDouble(label.substring(1));
            return new Column(r -> r.iteration().path("latencyNs").has(label) ? text(r.iteration().path("latencyNs")
                    .path(label)) : null, r -> r.messages() == 0 ? "" : Long.toString(valueAt(r.latency(), percentile)));
        }
        Matcher h = HANDSHAKE_PERCENTILE.matcher(name);
        if (h.matches()) {
            String label = h.group(1);
            double percentile = Double.parseDouble(label.substring(1));
            return new Column(r -> r.handshakes().path("latencyNs").has(label) ? text(r.handshakes().path("latencyNs")
                    .path(label)) : null, r -> !r.handshakes().isObject() || r.handshakes().path("count").asLong() == 0
                    ? "" : Long.toString(valueAt(r.handshakeLatency(), percentile)));
        }
        // HTTP: a status class's responses, worked out from the iteration's responses by code; its latency from its
        // histogram. Empty cells for other protocols.
        Matcher sc = STATUS_CLASS.matcher(name);
        if (sc.matches()) {
            String cls = sc.group(1);
            return new Column(r -> text(r.iteration().path("latencyByStatusClass").path(cls).path("count")),
                    r -> {
                        if (!r.iteration().path("latencyByStatusClass").isObject()) {
                            return "";
                        }
                        long n = 0;
                        for (var code : r.iteration().path("errors").path("statuses").properties()) {
                            if (code.getKey().charAt(0) == cls.charAt(0) && code.getKey().length() == 3) {
                                n += code.getValue().asLong();
                            }
                        }
                        return Long.toString(n);
                    });
        }
        Matcher scp = STATUS_CLASS_PERCENTILE.matcher(name);
        if (scp.matches()) {
            String cls = scp.group(1);
            String label = scp.group(2);
            double percentile = Double.parseDouble(label.substring(1));
            return new Column(r -> {
                JsonNode l = r.iteration().path("latencyByStatusClass").path(cls);
                return !l.isObject() || l.path("count").asLong() == 0 ? ""
                        : l.path("latencyNs").has(label) ? text(l.path("latencyNs").path(label)) : null;
            }, r -> {
                JsonNode l = r.iteration().path("latencyByStatusClass").path(cls);
                return !l.isObject() || l.path("count").asLong() == 0 ? ""
                        : Long.toString(valueAt(HistogramCodec.decode(l.path("histogram").asText()), percentile));
            });
        }
        Matcher e = ERROR_KIND.matcher(name);
        if (e.matches() && List.of(ErrorKind.values()).stream().anyMatch(k -> k.label().equals(e.group(1)))) {
            return new Column(r -> r.iteration().path("errors").path(e.group(1)).asText(), null);
        }
        return null;
    }

    /**
     * HdrHistogram's own percentile, as nbench documents its figures (p100 the true maximum); written here
     * without nbench's {@code Percentiles}, so a change there shows.
     */
    public static long valueAt(Histogram h, double percentile) {
        return percentile >= 100 ? h.getMaxValue() : h.getValueAtPercentile(percentile);
    }

    /**
     * Checks a CSV output (header and rows) against the document: every column is covered by this table,
     * there is one row per iteration per combination in order, and every cell equals the document's field
     * and the figure worked out independently.
     */
    public static void check(String csv, JsonNode doc) {
        List<List<String>> records = records(csv);
        List<String> header = records.get(0);
        assertEquals(CsvReport.columns(), header, "the header is CsvReport's columns");
        List<String> uncovered = header.stream().filter(h -> column(h) == null).toList();
        assertEquals(List.of(), uncovered, "CSV columns with no mapping to the result document in CsvColumns");
        int line = 1;
        int statusColumn = header.indexOf("statuses");
        for (JsonNode combination : doc.path("combinations")) {
            Map<String, Long> totals = new LinkedHashMap<>();
            Map<String, Long> statuses = new TreeMap<>();
            for (JsonNode iteration : combination.path("iterations")) {
                assertNotNull(line < records.size() ? records.get(line) : null, "a CSV row per iteration");
                List<String> cells = records.get(line);
                assertEquals(header.size(), cells.size(), String.join(",", cells));
                Row row = new Row(doc, combination, iteration);
                for (int i = 0; i < header.size(); i++) {
                    String name = header.get(i);
                    String where = "column " + name + " of CSV line " + (line + 1) + " (" + combination.path("name")
                            .asText() + ", iteration " + iteration.path("index") + (iteration.path("warmup")
                            .asBoolean() ? " warmup" : "") + ")";
                    Column c = column(name);
                    if (c.json() != null) {
                        String expected = c.json().apply(row);
                        if (expected != null) {
                            assertEquals(expected, cells.get(i), where + " against the document");
                        }
                    }
                    if (c.independent() != null) {
                        assertEquals(c.independent().apply(row), cells.get(i), where + " worked out independently");
                    }
                    if (RUN_TOTALS.containsKey(name)) {
                        totals.merge(name, Long.parseLong(cells.get(i)), Long::sum);
                    }
                }
                addStatuses(statuses, cells.get(statusColumn));
                line++;
            }
            // Every response of the run is in one row or in the drain (what came after a time-based run's cut).
            combination.path("drain").path("errors").path("statuses").properties()
                    .forEach(e -> statuses.merge(e.getKey(), e.getValue().asLong(), Long::sum));
            Map<String, Long> run = new TreeMap<>();
            combination.path("errors").path("statuses").properties()
                    .forEach(e -> run.put(e.getKey(), e.getValue().asLong()));
            assertEquals(run, statuses, "column statuses summed over the rows (and the drain) of "
                    + combination.path("name").asText() + " against the run's errors.statuses");
            for (Map.Entry<String, Function<JsonNode, Long>> t : RUN_TOTALS.entrySet()) {
                assertEquals(t.getValue().apply(combination), totals.getOrDefault(t.getKey(), 0L),
                        "column " + t.getKey() + " summed over the rows of " + combination.path("name").asText());
            }
        }
        assertEquals(records.size(), line, "no CSV row without an iteration in the document");
    }

    /** The CSV's records (header first), read by Jackson's CSV reader: RFC 4180 quoting undone. */
    public static List<List<String>> records(String csv) {
        List<List<String>> records = new ArrayList<>();
        try (MappingIterator<String[]> it = new CsvMapper().enable(CsvParser.Feature.WRAP_AS_ARRAY)
                .readerFor(String[].class).readValues(csv)) {
            it.forEachRemaining(r -> records.add(List.of(r)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return records;
    }

    /** A combination key's value as the CSV writes it: empty when the combination has no such key. */
    private static String key(Row r, String key) {
        JsonNode v = r.combination().path("keys").path(key);
        return v.isMissingNode() || v.isNull() ? "" : v.asText();
    }

    /** The key's value when the combination has the key, checked against the load's field: the load asked for. */
    private static String asked(Row r, String key, String loadField) {
        String given = key(r, key);
        if (given.isEmpty()) {
            return "";
        }
        if (given.equals(Capacity.PROBE)) { // a capacity search's probe: the closed loop
            assertEquals(0.0, r.load().path(loadField).asDouble(), 0.0, "the probe's load." + loadField);
            return given;
        }
        assertEquals(Double.parseDouble(given), r.load().path(loadField).asDouble(), 0.0,
                "key " + key + " and load." + loadField);
        return given;
    }

    /** The combination's other keys (swept -O keys) as {@code k=v;k=v}, in the order of configuration.keys. */
    private static String otherKeys(Row r) {
        StringBuilder sb = new StringBuilder();
        for (JsonNode k : r.doc().path("configuration").path("keys")) {
            String name = k.asText();
            JsonNode v = r.combination().path("keys").path(name);
            if (!CsvReport.KEY_COLUMNS.contains(name) && !v.isMissingNode() && !v.isNull()) {
                sb.append(sb.length() > 0 ? ";" : "").append(name).append('=').append(v.asText());
            }
        }
        return sb.toString();
    }

    /**
     * The request payload a message sends: {@code --size}, but for HTTP only POST, PUT and PATCH send a body
     * (RFC 9110 gives the others none), so a GET's MiB/s is 0 whatever its {@code --size}.
     */
    public static long requestBody(JsonNode load) {
        JsonNode http = load.path("http");
        return http.isObject() && !List.of("POST", "PUT", "PATCH").contains(http.path("method").asText()) ? 0
                : load.path("size").asLong();
    }

    /** A status cell ({@code 200=9990;404=10}) read back: pairs split on {@code ;}, then on {@code =}. */
    public static Map<String, Long> statusCell(String cell) {
        Map<String, Long> byCode = new LinkedHashMap<>();
        for (String pair : cell.isEmpty() ? new String[0] : cell.split(";")) {
            String[] kv = pair.split("=", 2);
            byCode.put(kv[0], Long.parseLong(kv[1]));
        }
        return byCode;
    }

    private static void addStatuses(Map<String, Long> sums, String cell) {
        statusCell(cell).forEach((code, n) -> sums.merge(code, n, Long::sum));
    }

    /** A document's statuses object as the CSV cell: {@code code=count} pairs in the document's order. */
    private static String statuses(JsonNode byCode) {
        StringBuilder sb = new StringBuilder();
        byCode.properties().forEach(e -> sb.append(sb.length() > 0 ? ";" : "").append(e.getKey()).append('=')
                .append(e.getValue().asLong()));
        return sb.toString();
    }

    private static String text(JsonNode v) {
        return v.isMissingNode() || v.isNull() ? "" : v.asText();
    }

    /** A decimal field as the CSV prints it: null, missing or negative (unknown) is an empty cell. */
    private static String decimal(JsonNode v, int digits) {
        return v.isNumber() && v.asDouble() >= 0 ? format(v.asDouble(), digits) : "";
    }

    private static String format(double v, int digits) {
        return String.format(Locale.ROOT, "%." + digits + "f", v);
    }
}
