package io.nbench.report.compare;

import io.nbench.report.json.CombinationDoc;
import io.nbench.report.json.IterationDoc;
import io.nbench.report.json.ResultDoc;
import io.nbench.report.json.ResultDocReader;
import io.nbench.report.json.ResultReader;
import io.nbench.report.json.ServerStatsDoc;
import io.nbench.report.json.SummaryDoc;
import io.nbench.stats.HistogramCodec;
import io.nbench.stats.ShortIterations;
import io.nbench.stats.SteadyState;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/** A result document read back for {@code nbench compare}: each combination's measured iterations. */
public record ResultFile(Path path, List<CombinationData> combinations) {

    /**
     * One combination: its keys and measured iterations, and the document's steady-state warning ("not at
     * steady state: throughput rose 2.6x over 3 iterations"), or null when it found no trend or has no test.
     */
    public record CombinationData(String name, Map<String, String> keys, List<IterationData> iterations,
                                  String notSteady) {

        public CombinationData(String name, Map<String, String> keys, List<IterationData> iterations) {
            this(name, keys, iterations, null);
        }
    }

    /**
     * What compare needs of an iteration: throughput, the latency histogram (ns), the CPU (% of one core) of the
     * client and of the server (from {@code --server-stats}), and that CPU time per message (ns); NaN when the
     * document has none ({@link #cpuPerMessage} says when it cannot be computed).
     */
    public record IterationData(double msgPerSec, Histogram latency, double clientCpuPercent,
                                double serverCpuPercent, double clientCpuNsPerMessage, double serverCpuNsPerMessage) {

        public IterationData(double msgPerSec, Histogram latency) {
            this(msgPerSec, latency, Double.NaN, Double.NaN);
        }

        public IterationData(double msgPerSec, Histogram latency, double clientCpuPercent, double serverCpuPercent) {
            this(msgPerSec, latency, clientCpuPercent, serverCpuPercent, Double.NaN, Double.NaN);
        }
    }

    /**
     * CPU time per message in ns: the process's CPU (% of one core) over {@code wallNs}, divided among the
     * {@code messages} of that window. NaN when it cannot be computed: no CPU figure (the platform gives none, or
     * no {@code --server-stats} for the server), or nothing measured (no message, no time).
     */
    static double cpuPerMessage(double cpuPercent, long wallNs, long messages) {
        if (Double.isNaN(cpuPercent) || messages <= 0 || wallNs <= 0) {
            return Double.NaN;
        }
        return cpuPercent / 100.0 * wallNs / messages;
    }

    /**
     * The file is missing, beyond the size limit, not JSON, not a valid nbench-result/1 document, or holds a
     * damaged histogram; the message is one line naming the file and the field.
     */
    public static final class Unreadable extends Exception {
        private static final long serialVersionUID = 1L;

        Unreadable(String message) {
            super(message);
        }
    }

    /** The document at {@code path}, read within the default limit ({@link ResultReader#DEFAULT_MAX_BYTES}). */
    public static ResultFile read(Path path) throws Unreadable {
        return read(path, ResultReader.DEFAULT_MAX_BYTES);
    }

    /** The document at {@code path}, read within {@code maxBytes} and valid against the schema. */
    public static ResultFile read(Path path, long maxBytes) throws Unreadable {
        return of(path, document(path, maxBytes));
    }

    /** The document itself, for the readers that need more of it (report): bounded and valid, as {@link #read}. */
    public static ResultDoc document(Path path, long maxBytes) throws Unreadable {
        try {
            return ResultDocReader.document(ResultReader.read(path, maxBytes));
        } catch (ResultReader.Unreadable e) {
            throw new Unreadable(e.getMessage());
        } catch (OutOfMemoryError e) {
            throw outOfMemory(path);
        }
    }

    /**
     * What compare needs of a document already read by {@link #document}: the measured iterations' latency
     * histograms decoded (a damaged one is named with its field).
     */
    public static ResultFile of(Path path, ResultDoc doc) throws Unreadable {
        try {
            return decode(path, doc);
        } catch (OutOfMemoryError e) {
            throw outOfMemory(path);
        }
    }

    /**
     * The histograms {@link #of} does not decode (warmup iterations, the open loop's, the reconnects'), for the
     * readers that use them (report --merge, --html): a damaged one is one line naming its field here rather
     * than an error half way through a merge.
     */
    public static void checkOtherHistograms(Path path, ResultDoc doc) throws Unreadable {
        try {
            decodeOtherHistograms(path, doc);
        } catch (OutOfMemoryError e) {
            throw outOfMemory(path);
        }
    }

    private static void decodeOtherHistograms(Path path, ResultDoc doc) throws Unreadable {
        List<CombinationDoc> combinations = doc.combinations();
        for (int c = 0; c < combinations.size(); c++) {
            List<IterationDoc> iterations = combinations.get(c).iterations();
            for (int i = 0; i < iterations.size(); i++) {
                IterationDoc it = iterations.get(i);
                String at = "combinations[" + c + "].iterations[" + i + "].";
                if (it.warmup()) { // of() decodes the measured ones
                    IterationFiguresCheck.check(path, at, it, histogram(path, at + "histogram", it.histogram()));
                }
                if (it.openLoop() != null) {
                    histogram(path, at + "openLoop.uncorrectedHistogram", it.openLoop().uncorrectedHistogram());
                    histogram(path, at + "openLoop.sendLagHistogram", it.openLoop().sendLagHistogram());
                }
                if (it.connectLatency() != null) {
                    histogram(path, at + "connectLatency.histogram", it.connectLatency().histogram());
                }
                if (it.handshakeLatency() != null) {
                    histogram(path, at + "handshakeLatency.histogram", it.handshakeLatency().histogram());
                }
            }
        }
    }

    /**
     * A document within the size limit whose decoded histograms (260 KB each) or tree (about ten times the
     * text) still exceed the heap: one line saying so, not a stack trace. The reading thread holds what was
     * allocated, so unwinding it frees the heap again.
     */
    private static Unreadable outOfMemory(Path path) {
        return new Unreadable(path + ": " + heapTooSmall());
    }

    /** Why a reader stopped when the documents together (a merge, a page) exceed the heap, and what to change. */
    public static String heapTooSmall() {
        return "needs more memory than this JVM's " + (Runtime.getRuntime().maxMemory() >> 20)
                + " MiB of heap: raise it (JAVA_TOOL_OPTIONS=-Xmx8g) or read fewer or smaller documents";
    }

    private static ResultFile decode(Path path, ResultDoc doc) throws Unreadable {
        List<CombinationData> combinations = new ArrayList<>();
        for (int ci = 0; ci < doc.combinations().size(); ci++) {
            CombinationDoc c = doc.combinations().get(ci);
            // The server's figures of a measured iteration carry its index (none: no --server-stats, or
            // stopped part way).
            Map<Integer, ServerStatsDoc.Iteration> server = new HashMap<>();
            if (c.serverStats() != null) {
                c.serverStats().iterations().forEach(s -> server.put(s.index(), s));
            }
            List<IterationData> iterations = new ArrayList<>();
            for (int i = 0; i < c.iterations().size(); i++) {
                IterationDoc it = c.iterations().get(i);
                if (it.warmup() || ShortIterations.leftOut(it.partial(), it.wallNs(), c.load().iterationNanos())) {
                    continue; // as the document's summary: no warmup, no iteration cut too short to be a sample
                }
                String at = "combinations[" + ci + "].iterations[" + i + "].";
                Histogram latency = histogram(path, at + "histogram", it.histogram());
                IterationFiguresCheck.check(path, at, it, latency);
                double clientCpu = it.resources() == null ? Double.NaN : orNaN(it.resources().cpuPercent());
                ServerStatsDoc.Iteration s = server.get(it.index());
                double serverCpu = s == null ? Double.NaN : orNaN(s.cpuPercent());
                // The server's CPU over its own window, divided among the requests it counted in that window (it
                // may have served other clients too); an echo server counts bytes, not requests: the client's messages.
                iterations.add(new IterationData(it.msgPerSec(), latency, clientCpu, serverCpu,
                        cpuPerMessage(clientCpu, it.wallNs(), it.messages()), s == null ? Double.NaN
                        : cpuPerMessage(serverCpu, s.nanos(), s.requests() > 0 ? s.requests() : it.messages())));
            }
            combinations.add(new CombinationData(c.name(), c.keys(), iterations, notSteady(c.summary().steadyState())));
        }
        return new ResultFile(path, combinations);
    }

    private static Histogram histogram(Path path, String field, String encoded) throws Unreadable {
        try {
            return HistogramCodec.decode(encoded == null ? "" : encoded);
        } catch (IllegalArgumentException e) {
            throw new Unreadable(path + ": " + field + ": " + e.getMessage());
        }
    }

    /**
     * What the document's trend test said, in the client's words; null when it found no trend, or the
     * document is older than the test.
     */
    private static String notSteady(SummaryDoc.SteadyState test) {
        String trend = test == null || test.trend() == null ? "" : test.trend();
        if (!trend.equals(SteadyState.Trend.RISING.label()) && !trend.equals(SteadyState.Trend.FALLING.label())) {
            return null;
        }
        return "not at steady state: " + SteadyState.describe(SteadyState.Trend.valueOf(trend.toUpperCase(
                Locale.ROOT)), orNaN(test.change()), test.n()) + "; add --warmup or lengthen the iterations";
    }

    /** A figure that may be null or absent: NaN then. */
    private static double orNaN(Double n) {
        return n == null ? Double.NaN : n;
    }
}
