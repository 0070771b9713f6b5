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
 * Each interval is tagged with its combination and iteration, e.g.
 * {@code impl=netty;size=1024;threads=4;window=1;iter=3} (a warmup slice ends {@code warmup=1}); the
 * format forbids commas and spaces in tags. Timestamps are seconds since the base time, which is the first
 * combination's start; later combinations of a sweep continue on the same clock. The log goes through
 * {@link AtomicFiles}: it replaces what is at the path only when it is closed complete.
 */
public final class HdrIntervalLog implements AutoCloseable {

    /** Max column in ms, as HdrHistogram's log processor assumes for ns values. */
    private static final double MAX_VALUE_UNIT_RATIO = 1_000_000.0;

    private final AtomicFiles.Pending file;
    private final PrintStream stream;
    private final HistogramLogWriter writer;
    private long baseEpochMillis = -1;

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

            @Override
            public void onStarted(long epochMillis) {
                startEpochMillis = epochMillis;
                header(epochMillis);
            }

            @Override
            public void onInterval(IntervalResult i) {
                Histogram h = i.latency();
                h.setStartTimeStamp(startEpochMillis + i.startNanos() / 1_000_000L);
                h.setEndTimeStamp(startEpochMillis + i.endNanos() / 1_000_000L);
                h.setTag(combination.tag() + ";" + (i.warmup() ? "warmup=" : "iter=") + i.iteration());
                double offset = (startEpochMillis - baseEpochMillis) / 1000.0;
                synchronized (writer) {
                    writer.outputIntervalHistogram(offset + i.startNanos() / 1e9, offset + i.endNanos() / 1e9, h,
                            MAX_VALUE_UNIT_RATIO);
                }
            }
        };
    }

    private synchronized void header(long epochMillis) {
        if (baseEpochMillis >= 0) {
            return;
        }
        baseEpochMillis = epochMillis;
        writer.outputLogFormatVersion();
        writer.outputComment("nbench " + Environment.version() + " latency in ns; tags: combination keys;iter=N "
                + "(measured) or warmup=N");
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
