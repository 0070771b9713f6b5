package io.nbench.report.hdr;

import io.nbench.report.AtomicFiles;
import io.nbench.sweep.Combination;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.HdrHistogram.Histogram;

/**
 * {@code --hgrm TEMPLATE}: one percentile distribution per combination, HdrHistogram's own
 * {@code outputPercentileDistribution} of the measured iterations merged, in milliseconds: the unit
 * HdrHistogram's plotter ({@code plotFiles.html}) assumes by default and {@code HistogramLogProcessor} writes
 * from ns values by default, so nothing needs choosing; a first comment line states it (the plotter skips lines
 * starting with {@code #}). {@value #PLACEHOLDER} in the template becomes the combination's file-safe
 * name ({@code impl-netty_size-1024_threads-4_window-1}); a template without it names a single file and
 * cannot be used with a sweep.
 */
public final class PercentileFiles {

    public static final String PLACEHOLDER = "{combination}";

    private final String template;

    public PercentileFiles(String template, int combinations) {
        if (!template.contains(PLACEHOLDER) && combinations != 1) {
            throw new IllegalArgumentException("--hgrm " + template + " names one file but "
                    + (combinations > 1 ? "the sweep has " + combinations + " combinations" : "--find-rate runs several steps")
                    + ": put " + PLACEHOLDER + " in it, e.g. lat-" + PLACEHOLDER + ".hgrm");
        }
        this.template = template;
    }

    public Path pathFor(Combination c) {
        return Path.of(template.replace(PLACEHOLDER, c.fileName()));
    }

    /** Writes the distribution atomically; values scaled from ns to ms. */
    public Path write(Combination c, Histogram merged) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream ps = new PrintStream(bytes, false, StandardCharsets.UTF_8)) {
            ps.println("#nbench " + c.tag() + ": latency in milliseconds (HdrHistogram's plotter default unit), "
                    + "the measured iterations merged");
            merged.outputPercentileDistribution(ps, 1_000_000.0);
        }
        Path path = pathFor(c);
        AtomicFiles.write(path, bytes.toByteArray());
        return path;
    }
}
