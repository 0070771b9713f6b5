package io.nbench.report.hdr;

import io.nbench.load.RunListener;
import io.nbench.report.AtomicFiles;
import io.nbench.report.Environment;
import io.nbench.stats.IntervalResult;
import io.nbench.sweep.Combination;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * {@code --hdr-log FILE}: a standard HdrHistogram interval log written with HdrHistogram's own
 * {@link HistogramLogWriter}, one interval per second of every iteration (warmup included), values in ns.
 * Intervals are tagged by combination only, so that HdrHistogram's {@code HistogramLogProcessor -tag TAG} gives
 * a combination's whole measured spectrum: measured intervals carry the combination's tag
 * ({@code impl=netty;size=1024;threads=4;window=1}; the format forbids commas and spaces in tags), warmup ones
 * that tag followed by {@code ;warmup}. The processor without {@code -tag} reads the untagged intervals only (and
 * fails when there are none, as it does for a tag that has none): each measured interval of the first combination
 * (the only one without a sweep) is written a second time untagged, named by the header comment
 * {@value #UNTAGGED}TAG. A reader merging intervals by tag skips the untagged copies. Iterations are marked by
 * comment lines ({@code #nbench iteration 3 of TAG}, {@code #nbench warmup 1 of TAG}) before their first interval.
 * Timestamps are seconds since the base time, which is the first combination's start; later combinations of a
 * sweep continue on the same clock. The log goes through {@link AtomicFiles}: it replaces what is at the path
 * only when it is closed complete.
 */
public final class HdrIntervalLog implements AutoCloseable {

    /** Max column in ms, as HdrHistogram's log processor assumes for ns values. */
    private static final double MAX_VALUE_UNIT_RATIO = 1_000_000.0;

    /** The header comment naming the combination whose measured intervals are untagged. */
    public static final String UNTAGGED = "#nbench untagged: ";
    /** The tag suffix of warmup intervals. */
    public static final String WARMUP = ";warmup";

    private final AtomicFiles.Pending file;
    private final PrintStream stream;
    private final HistogramLogWriter writer;
    private long baseEpochMillis = -1;
    private Combination untagged;

    private HdrIntervalLog(AtomicFiles.Pending file) {
        this.file = file;
        this.stream = new PrintStream(file.stream(), false, StandardCharsets.UTF_8);
        this.writer = new HistogramLogWriter(stream);
    }

    /** Starts the log; an I/O error here means nothing ran yet. */
    public static HdrIntervalLog open(Path file) throws IOException {
        return new HdrIntervalLog(AtomicFiles.open(file));
    }

    /** The listener that logs one combination's intervals. */
    public RunListener forCombination(Combination combination) {
        return new RunListener() {
            private long startEpochMillis;
            private String iteration = ""; // the last iteration's comment

            @Override
            public void onStarted(long epochMillis) {
                startEpochMillis = epochMillis;
                header(epochMillis, combination);
            }

            @Override
            public void onInterval(IntervalResult i) {
                Histogram h = i.latency();
                h.setStartTimeStamp(startEpochMillis + i.startNanos() / 1_000_000L);
                h.setEndTimeStamp(startEpochMillis + i.endNanos() / 1_000_000L);
                String tag = combination.tag();
                h.setTag(i.warmup() ? tag + WARMUP : tag);
                double offset = (startEpochMillis - baseEpochMillis) / 1000.0;
                String comment = "nbench " + (i.warmup() ? "warmup " : "iteration ") + i.iteration() + " of " + tag;
                synchronized (writer) {
                    if (!comment.equals(iteration)) {
                        iteration = comment;
                        writer.outputComment(comment);
                    }
                    writer.outputIntervalHistogram(offset + i.startNanos() / 1e9, offset + i.endNanos() / 1e9, h,
                            MAX_VALUE_UNIT_RATIO);
                    if (!i.warmup() && combination.equals(untagged)) {
                        h.setTag(null);
                        writer.outputIntervalHistogram(offset + i.startNanos() / 1e9, offset + i.endNanos() / 1e9, h,
                                MAX_VALUE_UNIT_RATIO);
                        h.setTag(tag);
                    }
                }
            }
        };
    }

    private synchronized void header(long epochMillis, Combination combination) {
        if (baseEpochMillis >= 0) {
            return;
        }
        baseEpochMillis = epochMillis;
        untagged = combination;
        writer.outputLogFormatVersion();
        writer.outputComment("nbench " + Environment.version() + " latency in ns; measured intervals tagged with their "
                + "combination, warmup ones COMBINATION" + WARMUP + "; the first combination's measured intervals also "
                + "untagged (a copy, for HistogramLogProcessor without -tag; skip them when merging by tag)");
        writer.outputComment(UNTAGGED.substring(1) + combination.tag());
        writer.outputStartTime(epochMillis);
        writer.setBaseTime(epochMillis);
        writer.outputBaseTime(epochMillis);
        writer.outputLegend();
        stream.flush();
    }

    /** Completes the log; a write error anywhere in it (disk full) surfaces here, with its cause. */
    @Override
    public void close() throws IOException {
        stream.flush();
        file.commit();
    }

    /** Drops an unfinished log (the run could not complete its outputs): what was at the path stays. */
    public void abandon() {
        file.close();
    }
}
