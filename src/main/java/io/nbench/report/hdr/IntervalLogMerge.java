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
 * FILE, each interval's tag prefixed with its server ({@code server=nio;impl=netty;...;iter=3}), on one clock:
 * the first log's base time, later servers' timestamps shifted by the difference of base times, which are
 * whole milliseconds, so every timestamp stays exactly what its own log said. The histograms are copied as
 * written, never decoded.
 */
public final class IntervalLogMerge {

    private static final String BASE_TIME = "#[BaseTime: ";
    private static final String START_TIME = "#[StartTime: ";

    private IntervalLogMerge() {
    }

    /** Writes {@code target} from {@code logs} (server name to its log, in run order), through {@link AtomicFiles}. */
    public static void write(Path target, Map<String, Path> logs) throws IOException {
        long baseMillis = -1;
        try (AtomicFiles.Pending file = AtomicFiles.open(target)) {
            PrintStream out = new PrintStream(file.stream(), false, StandardCharsets.UTF_8);
            HistogramLogWriter writer = new HistogramLogWriter(out);
            for (Map.Entry<String, Path> log : logs.entrySet()) {
                List<String> lines = Files.readAllLines(log.getValue(), StandardCharsets.UTF_8);
                long logBase = millis(lines, BASE_TIME, log.getValue());
                if (baseMillis < 0) {
                    baseMillis = logBase;
                    writer.outputLogFormatVersion();
                    writer.outputComment("nbench " + Environment.version() + " latency in ns; tags: server=TRANSPORT;"
                            + "combination keys;iter=N (measured) or warmup=N");
                    writer.outputStartTime(millis(lines, START_TIME, log.getValue()));
                    writer.setBaseTime(baseMillis);
                    writer.outputBaseTime(baseMillis);
                    writer.outputLegend();
                }
                BigDecimal shift = BigDecimal.valueOf(logBase - baseMillis, 3);
                for (String line : lines) {
                    if (!line.isEmpty() && !line.startsWith("#") && !line.startsWith("\"")) {
                        out.println(interval(line, log.getKey(), shift));
                    }
                }
            }
            out.flush();
            file.commit();
        }
    }

    /** {@code [Tag=T,]start,length,max,histogram} with the server in the tag and the start shifted. */
    private static String interval(String line, String server, BigDecimal shift) {
        String tag = "";
        String rest = line;
        if (line.startsWith("Tag=")) {
            int comma = line.indexOf(',');
            tag = ";" + line.substring("Tag=".length(), comma);
            rest = line.substring(comma + 1);
        }
        int comma = rest.indexOf(',');
        BigDecimal start = new BigDecimal(rest.substring(0, comma)).add(shift);
        return "Tag=server=" + server + tag + "," + start.toPlainString() + rest.substring(comma);
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
