package io.nbench.report.hdr;

import io.nbench.load.RunListener;
import io.nbench.report.Environment;
import io.nbench.stats.IntervalResult;
import io.nbench.sweep.Combination;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * {@code --hdr-log FILE}: a standard HdrHistogram interval log written with HdrHistogram's own
 * {@link HistogramLogWriter}, one interval per second of every iteration (warmup included), values in ns.
 * Each interval is tagged with its combination and iteration, e.g.
 * {@code impl=netty;size=1024;threads=4;window=1;iter=3} (a warmup slice ends {@code warmup=1}); the
 * format forbids commas and spaces in tags. Timestamps are seconds since the base time, which is the first
 * combination's start; later combinations of a sweep continue on the same clock.
 */
public final class HdrIntervalLog implements AutoCloseable {

    /** Max column in ms, as HdrHistogram's log processor assumes for ns values. */
    private static final double MAX_VALUE_UNIT_RATIO = 1_000_000.0;

    private final Path file;
    private final PrintStream stream;
    private final HistogramLogWriter writer;
    private long baseEpochMillis = -1;

    private HdrIntervalLog(Path file, PrintStream stream) {
        this.file = file;
        this.stream = stream;
        this.writer = new HistogramLogWriter(stream);
    }

    /** Creates (truncates) the log; an I/O error here means nothing ran yet. */
    public static HdrIntervalLog open(Path file) throws IOException {
        return new HdrIntervalLog(file, new PrintStream(new FileOutputStream(file.toFile()), false, "UTF-8"));
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

    /** Closes the log; a write error anywhere in it (disk full) surfaces here. */
    @Override
    public void close() throws IOException {
        stream.flush();
        boolean failed = stream.checkError();
        stream.close();
        if (failed) {
            throw new IOException("write error on " + file + " (disk full?)");
        }
    }
}
