package io.nbench.report;

import io.nbench.load.LoadSpec;
import io.nbench.load.RunListener;
import io.nbench.stats.IntervalResult;
import io.nbench.stats.IterationResult;
import io.nbench.stats.Percentiles;
import io.nbench.sweep.Combination;
import io.nbench.units.Units;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * {@code --progress}: a status line on stderr every second. On a terminal that understands it, one line
 * rewritten in place ({@code \r} and erase-to-end-of-line), cut to the terminal's width so it never wraps
 * (a wrapped line leaves a stale row at each update), erased when an iteration ends so it never mixes with
 * the results on stdout. Elsewhere ({@code TERM=dumb}, or {@code --progress always} into a file or pipe)
 * plain lines, one per update, with no escape sequence.
 */
public final class ProgressLine {

    private static final String ERASE = "\r\033[K";

    private final PrintWriter err;
    private final int combinations;
    private final boolean rewrite;
    private final int columns;
    /** What is planned after this client's run ({@code nbench run}'s later rounds), ns; 0 when nothing is. */
    private final long afterNanos;

    /**
     * @param rewrite whether to rewrite one line in place (a terminal that understands escape sequences)
     * @param width   the terminal's width in columns, or 0 for no limit (not a terminal)
     */
    public ProgressLine(PrintWriter err, int combinations, boolean rewrite, int width) {
        this(err, combinations, rewrite, width, 0);
    }

    /** @param afterNanos the time planned after this client's run, which its estimate of what is left adds */
    public ProgressLine(PrintWriter err, int combinations, boolean rewrite, int width, long afterNanos) {
        this.err = err;
        this.combinations = combinations;
        this.rewrite = rewrite;
        this.afterNanos = afterNanos;
        // One column short of the width: some terminals wrap as soon as the last column is written.
        this.columns = width > 0 ? Math.max(1, width - 1) : Integer.MAX_VALUE;
    }

    /**
     * The status text of one update: the figures first, so a narrow terminal cuts the combination's name, then
     * the time since the combination started and an estimate of what is left of the whole run: the planned
     * iterations' time for a time-based run, the messages still to send at the rate so far for a counted one; the
     * combinations after this one as long as this one (a sweep's), and {@code afterNanos} planned after the run.
     */
    static String text(IntervalResult i, int number, int combinations, Combination c, LoadSpec spec, long done) {
        return text(i, number, combinations, c, spec, done, 0);
    }

    static String text(IntervalResult i, int number, int combinations, Combination c, LoadSpec spec, long done,
                       long afterNanos) {
        int of = i.warmup() ? spec.warmup() : spec.iterations();
        return (combinations > 1 ? "[" + number + "/" + combinations + "] " : "")
                + (i.warmup() ? "warmup " : "iteration ") + i.iteration() + "/" + of + ": "
                + Units.rate(i.messagesPerSecond()) + " msg/s, p50 "
                + Units.micros(Percentiles.valueAt(i.latency(), 50)) + " µs, p99 "
                + Units.micros(Percentiles.valueAt(i.latency(), 99)) + " µs, errors " + Units.count(i.errors().total())
                + " | " + clock(i.endNanos()) + " elapsed"
                + left(spec, i.endNanos(), done, combinations > 1 ? combinations - number : 0, afterNanos)
                + (combinations > 1 ? " | " + c.name() : "");
    }

    /**
     * ", 1:40 left", "" when nothing can be said yet (no message completed): this combination's rest, {@code later}
     * combinations as long as this one, and {@code afterNanos}.
     */
    private static String left(LoadSpec spec, long elapsedNanos, long done, int later, long afterNanos) {
        int all = spec.warmup() + spec.iterations();
        long leftNanos;
        long wholeNanos;
        if (spec.timeBased()) {
            wholeNanos = all * spec.iterationNanos();
        } else {
            long planned = all * spec.messagesPerIteration();
            if (done <= 0 || elapsedNanos <= 0) {
                return "";
            }
            wholeNanos = (long) (planned * ((double) elapsedNanos / done));
        }
        leftNanos = Math.max(0, wholeNanos - elapsedNanos) + later * wholeNanos + afterNanos;
        return ", " + (spec.timeBased() && later == 0 && afterNanos == 0 ? "" : "~") + clock(leftNanos) + " left";
    }

    /** m:ss, or h:mm:ss from an hour on. */
    public static String clock(long nanos) {
        long s = nanos / 1_000_000_000L;
        return s >= 3600 ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
                : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }

    public RunListener forCombination(Combination c, int number, LoadSpec spec) {
        return new RunListener() {
            /** Messages completed so far in this combination (the listener is called on one thread). */
            private long done;

            @Override
            public void onInterval(IntervalResult i) {
                done += i.latency().getTotalCount();
                String text = text(i, number, combinations, c, spec, done, afterNanos);
                String line = columns == Integer.MAX_VALUE ? text : Tty.fit(text, columns);
                if (rewrite) {
                    err.print(ERASE + line);
                } else {
                    err.println(line);
                }
                err.flush();
            }

            @Override
            public void onIteration(IterationResult iteration) {
                if (rewrite) {
                    err.print(ERASE);
                    err.flush();
                }
            }
        };
    }
}
