package io.nbench.report;

import io.nbench.load.RunListener;
import io.nbench.stats.IntervalResult;
import io.nbench.stats.IterationResult;
import io.nbench.stats.Percentiles;
import io.nbench.sweep.Combination;
import java.io.PrintWriter;

/**
 * {@code --progress}: a live status line on stderr, rewritten in place every second ({@code \r} and
 * erase-to-end-of-line), erased when an iteration ends so it never mixes with the results on stdout.
 */
public final class ProgressLine {

    private static final String ERASE = "\r\033[K";

    private final PrintWriter err;
    private final int combinations;

    public ProgressLine(PrintWriter err, int combinations) {
        this.err = err;
        this.combinations = combinations;
    }

    public RunListener forCombination(Combination c, int number) {
        String prefix = combinations > 1 ? "[" + number + "/" + combinations + " " + c.name() + "] " : "";
        return new RunListener() {
            @Override
            public void onInterval(IntervalResult i) {
                err.print(ERASE + prefix + (i.warmup() ? "warmup " : "iteration ") + i.iteration() + ": "
                        + Units.rate(i.messagesPerSecond()) + " msg/s, p50 "
                        + Units.micros(Percentiles.valueAt(i.latency(), 50)) + " µs, p99 "
                        + Units.micros(Percentiles.valueAt(i.latency(), 99)) + " µs, errors " + i.errors().total());
                err.flush();
            }

            @Override
            public void onIteration(IterationResult iteration) {
                err.print(ERASE);
                err.flush();
            }
        };
    }
}
