package io.nbench.report;

import io.nbench.load.RunListener;
import io.nbench.stats.IntervalResult;
import io.nbench.stats.IterationResult;
import io.nbench.stats.Percentiles;
import io.nbench.sweep.Combination;
import io.nbench.units.Units;
import java.io.PrintWriter;

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

    /**
     * @param rewrite whether to rewrite one line in place (a terminal that understands escape sequences)
     * @param width   the terminal's width in columns, or 0 for no limit (not a terminal)
     */
    public ProgressLine(PrintWriter err, int combinations, boolean rewrite, int width) {
        this.err = err;
        this.combinations = combinations;
        this.rewrite = rewrite;
        // One column short of the width: some terminals wrap as soon as the last column is written.
        this.columns = width > 0 ? Math.max(1, width - 1) : Integer.MAX_VALUE;
    }

    /** The status text of one update: the figures first, so a narrow terminal cuts the combination's name. */
    static String text(IntervalResult i, int number, int combinations, Combination c) {
        return (combinations > 1 ? "[" + number + "/" + combinations + "] " : "")
                + (i.warmup() ? "warmup " : "iteration ") + i.iteration() + ": "
                + Units.rate(i.messagesPerSecond()) + " msg/s, p50 "
                + Units.micros(Percentiles.valueAt(i.latency(), 50)) + " µs, p99 "
                + Units.micros(Percentiles.valueAt(i.latency(), 99)) + " µs, errors " + i.errors().total()
                + (combinations > 1 ? " | " + c.name() : "");
    }

    public RunListener forCombination(Combination c, int number) {
        return new RunListener() {
            @Override
            public void onInterval(IntervalResult i) {
                String line = columns == Integer.MAX_VALUE ? text(i, number, combinations, c)
                        : Tty.fit(text(i, number, combinations, c), columns);
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
