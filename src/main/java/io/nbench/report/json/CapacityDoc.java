package io.nbench.report.json;

import io.nbench.capacity.Capacity;
import io.nbench.report.CombinationResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A capacity search in the result document ({@code capacity}, present only with {@code --find-rate}): the answer,
 * its bracket and every step, each naming its combination (the probe's have {@code rate} {@code closed-loop}).
 *
 * @param objective  the {@code --slo} expressions joined by " and "
 * @param resolution the relative bracket width asked for (0.02 = 2 %)
 * @param firstGuess the closed-loop probe's msg/s; null when it did not run
 * @param outcome    found, stopped, interrupted, none_passed, client_limited or unstable
 * @param passed     the highest rate that passed (the answer), msg/s; null when none did
 * @param failed     the lowest rate above it that failed for the server's cause, msg/s; null when none did
 * @param steps      every open-loop step, in order
 * @param clientLimit the lowest rate above passed that failed only for the client's or the machine's causes, when
 *                   it, not a server failure, ended the search (client_limited); else null
 * @param passedSpread the runs at {@code passed}: the repeat measurements behind the answer; null without one
 * @param failedSpread the runs at {@code failed}; null without one
 */
public record CapacityDoc(String objective, double resolution, Double firstGuess, String outcome, Double passed,
                          Double failed, List<Step> steps, Double clientLimit, Spread passedSpread,
                          Spread failedSpread) {

    /** A document written before the client limit and the spreads. */
    public CapacityDoc(String objective, double resolution, Double firstGuess, String outcome, Double passed,
                       Double failed, List<Step> steps) {
        this(objective, resolution, firstGuess, outcome, passed, failed, steps, null, null, null);
    }

    /**
     * The runs at one rate: how many, how many passed, the range of their answered rates (null when none).
     */
    public record Spread(int runs, int passes, Double answeredMin, Double answeredMax) {
        static Spread of(Capacity.Spread s) {
            return s.runs() == 0 ? null : new Spread(s.runs(), s.passes(), orNull(s.answeredMin()),
                    orNull(s.answeredMax()));
        }
    }

    /**
     * One open-loop step.
     *
     * @param combination  its combination's name
     * @param targetRate   msg/s asked for
     * @param achievedRate msg/s sent; null when nothing was measured
     * @param answeredRate msg/s answered over the measured iterations; null when nothing was measured (or in a
     *                     document written before the field)
     * @param passed       this run's verdict: objectives met, the rate sent and answered within 1 %
     * @param nearBoundary a judged figure within 10 % of its limit: a pass is measured again before deciding
     * @param decided      the verdict at this rate once decided; null on a run followed by a repetition
     * @param cause        why the run failed ({@link io.nbench.capacity.StepCause#label}), "passed" when it
     *                     passed; null in a document written before it
     * @param confirming   whether the run measured a bracket's end again after the bracket closed
     */
    public record Step(String combination, double targetRate, Double achievedRate, Double answeredRate, boolean passed,
                       boolean nearBoundary, Boolean decided, String cause, boolean confirming) {
        public Step(String combination, double targetRate, Double achievedRate, Double answeredRate, boolean passed,
                    boolean nearBoundary, Boolean decided) {
            this(combination, targetRate, achievedRate, answeredRate, passed, nearBoundary, decided, null, false);
        }
    }

    /** The search of a client run; its steps are the combinations but the probes, in order. */
    static CapacityDoc of(Capacity c, List<CombinationResult> combinations) {
        List<String> names = combinations.stream().filter(r -> !Capacity.PROBE.equals(r.combination().get("rate")))
                .map(r -> r.combination().name()).toList();
        List<Step> steps = new ArrayList<>();
        for (int i = 0; i < c.steps().size(); i++) {
            Capacity.Step s = c.steps().get(i);
            String name = i < names.size() ? names.get(i) : null;
            steps.add(new Step(name, s.result().target(), orNull(s.result().achieved()),
                    orNull(s.result().answered()), s.result().passed(),
                    s.result().nearBoundary(), s.decided(), s.result().cause().label(), s.confirming()));
        }
        return new CapacityDoc(c.objective(), c.resolution(), orNull(c.firstGuess()),
                c.outcome().name().toLowerCase(Locale.ROOT), orNull(c.passed()), orNull(c.failed()), steps,
                orNull(c.clientLimit()), c.found() ? Spread.of(c.spreadAt(c.passed())) : null,
                Double.isNaN(c.failed()) ? null : Spread.of(c.spreadAt(c.failed())));
    }

    private static Double orNull(double v) {
        return Double.isNaN(v) ? null : v;
    }
}
