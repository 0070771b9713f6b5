package io.nbench.cli;

import io.nbench.report.CombinationResult;
import io.nbench.report.Status;
import io.nbench.report.SweepResult;
import io.nbench.stats.IterationResult;
import io.nbench.units.Units;
import java.util.ArrayList;
import java.util.List;

/**
 * One of {@code nbench run}'s rounds as one line (without {@code --verbose}): the client's full report of each
 * round (its header, iterations, summary and advice meant for a client run alone) made {@code run} print 355
 * lines for two servers; the server's summary over every round, printed at the end, is the one that counts.
 */
final class RoundLine {

    private RoundLine() {
    }

    /** {@code Round 1/5, server netty: 68,747 msg/s, p50 46.5 µs, p99 152 µs, errors 0} (and a status not PASS). */
    static String of(int round, int rounds, String server, SweepResult r) {
        List<String> parts = new ArrayList<>();
        for (CombinationResult c : r.combinations()) {
            for (IterationResult it : c.run().iterations()) {
                if (!it.warmup() && it.messages() == 0) {
                    parts.add("no message completed");
                } else if (!it.warmup()) {
                    parts.add(Units.count(Math.round(it.messagesPerSecond())) + " msg/s, p50 "
                            + Units.micros(it.percentile(50)) + " µs, p99 " + Units.micros(it.percentile(99))
                            + " µs, errors " + Units.count(it.errors().total()));
                }
            }
        }
        String line = "Round " + round + "/" + rounds + ", server " + server + ": "
                + (parts.isEmpty() ? "nothing measured" : String.join("; ", parts));
        if (r.status() != Status.PASS) {
            List<String> reasons = r.combinations().stream().flatMap(c -> c.reasons().stream()).distinct().toList();
            line += " | " + r.status() + (reasons.isEmpty() ? "" : ": " + String.join("; ", reasons));
        }
        return line;
    }
}
