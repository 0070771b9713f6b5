package io.nbench.report;

import io.nbench.load.LoadSpec;
import io.nbench.units.Durations;
import io.nbench.units.Units;
import java.time.Duration;

/**
 * The header's {@code plan:} line: how long, or how many messages, the whole run of a combination is before it
 * starts, warmup included, so nobody waits 130 s for what they took to be a 10 s run.
 */
final class PlanLine {

    private PlanLine() {
    }

    static String of(LoadSpec spec) {
        int runs = spec.warmup() + spec.iterations();
        String warmup = spec.warmup() == 0 ? "no warmup" : spec.warmup() + " warmup";
        if (spec.timeBased()) {
            Duration each = Duration.ofNanos(spec.iterationNanos());
            if (spec.iterations() == 1) {
                return "plan: 1 measured run of " + Durations.format(each) + ", " + warmup
                        + (spec.warmup() == 0 ? "" : " (" + Durations.format(each.multipliedBy(runs)) + " in all)");
            }
            return "plan: " + warmup + " + " + spec.iterations() + " measured iterations of " + Durations.format(each)
                    + " = " + Durations.format(each.multipliedBy(runs));
        }
        String over = " over " + spec.connections() + (spec.connections() == 1 ? " connection" : " connections");
        long each = spec.messagesPerIteration();
        if (spec.iterations() == 1 && spec.warmup() == 0) {
            return "plan: " + Units.count(each) + " requests" + over;
        }
        return "plan: " + warmup + " + " + spec.iterations() + " measured iterations of " + Units.count(each)
                + " messages = " + Units.count(each * runs) + over;
    }
}
