package io.nbench.report.compare;

import io.nbench.report.json.IterationDoc;
import java.nio.file.Path;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * The figures of one iteration that nbench writes from one another, checked to agree when a document is read back:
 * {@code messages} is the latency histogram's count (every completed message records one latency) and
 * {@code msgPerSec} is {@code messages / wallNs}. The schema bounds each field alone; a document whose histogram
 * holds 100 latencies beside {@code messages: 200}, or a rate of 1.79e308 beside 200 messages in 2 ms, is damaged
 * or edited, and compare or merge would otherwise print one of the two figures as if it were the other.
 */
final class IterationFiguresCheck {

    /**
     * Relative difference allowed between the written rate and the one computed here: the writer computes the same
     * double from the same two longs, so only a rewriting tool's rounding (say to 6 significant digits) is let pass.
     */
    private static final double RATE_TOLERANCE = 1e-5;

    private IterationFiguresCheck() {
    }

    /** Throws when {@code it}'s figures disagree, naming the file and the field ({@code at} ends with a dot). */
    static void check(Path path, String at, IterationDoc it, Histogram latency) throws ResultFile.Unreadable {
        if (latency.getTotalCount() != it.messages()) {
            throw new ResultFile.Unreadable(path + ": " + at + "histogram: holds " + latency.getTotalCount()
                    + " latencies where messages says " + it.messages() + ": " + DAMAGED);
        }
        double expected = it.wallNs() == 0 ? 0 : it.messages() * 1e9 / it.wallNs();
        if (Math.abs(it.msgPerSec() - expected) > RATE_TOLERANCE * Math.max(expected, 1e-9)) {
            throw new ResultFile.Unreadable(path + ": " + at + "msgPerSec: " + format(it.msgPerSec())
                    + " is not messages / wallNs (" + it.messages() + " in " + it.wallNs() + " ns = "
                    + format(expected) + "/s): " + DAMAGED);
        }
    }

    private static final String DAMAGED = "a damaged or edited document? use the files nbench wrote";

    private static String format(double rate) {
        return String.format(Locale.ROOT, rate >= 1e12 || (rate > 0 && rate < 1e-3) ? "%.3g" : "%.3f", rate);
    }
}
