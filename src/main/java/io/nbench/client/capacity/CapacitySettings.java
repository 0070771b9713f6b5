package io.nbench.client.capacity;

import io.nbench.client.MaxErrors;
import io.nbench.client.Verdict;
import io.nbench.report.threshold.Threshold;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

/**
 * How a capacity search runs.
 *
 * @param objectives the {@code --slo} expressions, each a threshold every passing step meets
 * @param resolution the bracket's relative width to reach ({@code --rate-resolution}), e.g. 0.02
 * @param maxTime    {@code --max-time}: no step starts that would end after it; null: no limit
 * @param warmup     warmup iterations of each open-loop step
 * @param iterations measured iterations of each open-loop step
 * @param maxErrors  {@code --max-errors}, which every passing step keeps to as well
 * @param confirmIterations measured iterations of the answer's measurement after the bracket closed
 *                   ({@code --confirm D} over the iteration time; else {@code iterations})
 */
public record CapacitySettings(List<Threshold> objectives, double resolution, Duration maxTime, int warmup,
                               int iterations, MaxErrors maxErrors, int confirmIterations) {

    /** The default {@code --rate-resolution}: 2 %. */
    public static final double DEFAULT_RESOLUTION = 0.02;

    public CapacitySettings {
        objectives = List.copyOf(objectives);
    }

    /** Settings whose answer is measured again like any step. */
    public CapacitySettings(List<Threshold> objectives, double resolution, Duration maxTime, int warmup,
                            int iterations, MaxErrors maxErrors) {
        this(objectives, resolution, maxTime, warmup, iterations, maxErrors, iterations);
    }

    /**
     * How each open-loop step is judged: {@code --max-errors} and the objectives as thresholds; its achieved rate
     * over the whole step, by {@link io.nbench.capacity.StepResult#passed}, not iteration by iteration.
     */
    public Verdict verdict() {
        return new Verdict(maxErrors, objectives).rateJudgedElsewhere();
    }

    /** {@code p99<=10ms and errors<=0.1%}: the objectives as the user wrote them. */
    public String objective() {
        return objectives.stream().map(Threshold::expression).collect(Collectors.joining(" and "));
    }
}
