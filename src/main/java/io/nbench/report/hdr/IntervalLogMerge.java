package io.nbench.report.hdr;

import io.nbench.report.AtomicFiles;
import io.nbench.report.Environment;
import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.HistogramLogWriter;

/**
 * {@code nbench run --hdr-log FILE}: each server's client writes its own interval log; this joins them into
 * FILE, each interval's tag prefixed with its server ({@code server=nio;impl=netty;...}), on one clock: the first
 * log's base time, later servers' timestamps shifted by the difference of base times, which are whole
 * milliseconds, so every timestamp stays exactly what its own log said. The histograms are copied as written,
 * never decoded. The untagged copies of the first server's first combination are kept (what HdrHistogram's
 * {@code HistogramLogProcessor} reads without {@code -tag}), from each of its logs, those of the other servers
 * dropped. The iteration comments are kept, with the server.
 */
public final class IntervalLogMerge {

    private static final String BASE_TIME = "#[BaseTime: ";
    private static final String START_TIME = "#[StartTime: ";

    private IntervalLogMerge() {
    }

    /** Writes {@code target} from {@code logs} (server name to its log, in run order), through {@link AtomicFiles}. */
    public static void write(Path target, Map<String, Path> logs) throws IOException {
        write(target, List.copyOf(logs.entrySet()));
    }

    /**
     * As {@link #write(Path, Map)}, a server possibly with several logs ({@code nbench run}'s rounds: one per
     * round, each on its own base time, shifted onto the first log's like any other).
     */
    public static void write(Path target, List<Map.Entry<String, Path>> logs) throws IOException {
        long baseMillis = -1;
        try (AtomicFiles.Pending file = AtomicFiles.open(target)) {
            PrintStream out = new PrintStream(file.stream(), false, StandardCharsets.UTF_8);
            HistogramLogWriter writer = new HistogramLogWriter(out);
            for (Map.Entry<String, Path> log : logs) {
                List<String> lines = Files.readAllLines(log.getValue(), StandardCharsets.UTF_8);
                long logBase = millis(lines, BASE_TIME, log.getValue());
                String server = "server=" + log.getKey();
                String untagged = untagged(lines);
                boolean first = baseMillis < 0;
                if (first) {
                    baseMillis = logBase;
                    writer.outputLogFormatVersion();
                    writer.outputComment("nbench " + Environment.version() + " latency in ns; measured intervals tagged "
                            + "server=TRANSPORT;COMBINATION, warmup ones ...;warmup; the first server's first "
                            + "combination's measured intervals also untagged (a copy, for HistogramLogProcessor without "
                            + "-tag; skip them when merging by tag)");
                    if (untagged != null) {
                        writer.outputComment(HdrIntervalLog.UNTAGGED.substring(1) + server + ";" + untagged);
                    }
                    writer.outputStartTime(millis(lines, START_TIME, log.getValue()));
                    writer.setBaseTime(baseMillis);
                    writer.outputBaseTime(baseMillis);
                    writer.outputLegend();
                }
                BigDecimal shift = BigDecimal.valueOf(logBase - baseMillis, 3);
                for (String line : lines) {
                    if (line.startsWith(ITERATION) || line.startsWith(WARMUP)) {
                        out.println("#nbench " + server + " " + line.substring("#nbench ".length()));
                    } else if (!line.isEmpty() && !line.startsWith("#") && !line.startsWith("\"")
                            && (log.getKey().equals(logs.get(0).getKey()) || line.startsWith("Tag="))) {
                        out.println(interval(line, server, shift));
                    }
                }
            }
            out.flush();
            file.commit();
        }
    }

    private static final String ITERATION = "#nbench iteration ";
    private static final String WARMUP = "#nbench warmup ";

    /** The combination a client's log leaves untagged, or null. */
    private static String untagged(List<String> lines) {
        for (String line : lines) {
            if (line.startsWith(HdrIntervalLog.UNTAGGED)) {
                return line.substring(HdrIntervalLog.UNTAGGED.length());
            }
        }
        return null;
    }

    /** {@code [Tag=T,]start,length,max,histogram} with the server in the tag and the start shifted. */
    private static String interval(String line, String server, BigDecimal shift) {
        String tag = null; // the first log's untagged copies stay untagged
        String rest = line;
        if (line.startsWith("Tag=")) {
            int comma = line.indexOf(',');
            tag = server + ";" + line.substring("Tag=".length(), comma);
            rest = line.substring(comma + 1);
        }
        int comma = rest.indexOf(',');
        BigDecimal start = new BigDecimal(rest.substring(0, comma)).add(shift);
        return (tag == null ? "" : "Tag=" + tag + ",") + start.toPlainString() + rest.substring(comma);
    }

    /** A header time in seconds since the epoch, with 3 decimals, as whole milliseconds. */
    private static long millis(List<String> lines, String header, Path log) throws IOException {
        for (String line : lines) {
            if (line.startsWith(header)) {
                String seconds = line.substring(header.length()).split("[ ,]", 2)[0];
                return new BigDecimal(seconds).movePointRight(3).longValueExact();
            }
        }
        throw new IOException(log + " has no " + header.substring(2).replace(": ", "") + " line");
    }
}
