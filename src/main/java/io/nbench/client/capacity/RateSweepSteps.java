package io.nbench.client.capacity;

import io.nbench.client.ClientPlan;
import io.nbench.client.PlannedSteps;
import io.nbench.client.StepSource;
import io.nbench.report.CombinationResult;
import io.nbench.report.Curve;
import io.nbench.report.SweepResult;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code --rate-sweep}: the plan's open-loop steps in order of rate, then the curve of latency against load made of
 * them, each step's rates and cause read as a capacity search reads its steps ({@link CapacitySearch#measured}).
 * The steps run as any plan's do ({@link PlannedSteps}: one INTERRUPTED or ABORTED ends the sweep).
 */
public final class RateSweepSteps implements StepSource {

    /** The sweep's rates run as any plan's steps are. */
    private final PlannedSteps planned;

    /** @param plan one combination at each of the sweep's rates, in increasing order */
    public RateSweepSteps(ClientPlan plan) {
        this.planned = new PlannedSteps(plan);
    }

    @Override
    public ClientPlan.Step next(List<CombinationResult> done) {
        return planned.next(done);
    }

    @Override
    public SweepResult conclude(SweepResult sweep) {
        List<Curve.Point> points = new ArrayList<>();
        for (CombinationResult r : sweep.combinations()) {
            points.add(Curve.Point.of(r, CapacitySearch.measured(r)));
        }
        return new SweepResult(sweep.target(), sweep.keys(), sweep.combinations(), sweep.error(), sweep.status(),
                sweep.exitCode(), null, Curve.of(points));
    }
}
