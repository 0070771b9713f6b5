package io.nbench.client.capacity;

import io.nbench.client.ClientPlan;
import io.nbench.client.StepSource;
import io.nbench.report.CombinationResult;
import io.nbench.report.Curve;
import io.nbench.report.Status;
import io.nbench.report.SweepResult;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code --rate-sweep}: the plan's open-loop steps in order of rate, then the curve of latency against load made of
 * them, each step's rates and cause read as a capacity search reads its steps ({@link CapacitySearch#measured}).
 * A step INTERRUPTED or ABORTED ends the sweep, as a sweep's does.
 */
public final class RateSweepSteps implements StepSource {

    private final List<ClientPlan.Step> steps;

    /** @param plan one combination at each of the sweep's rates, in increasing order */
    public RateSweepSteps(ClientPlan plan) {
        this.steps = plan.steps();
    }

    @Override
    public ClientPlan.Step next(List<CombinationResult> done) {
        if (!done.isEmpty()) {
            Status last = done.get(done.size() - 1).status();
            if (last == Status.INTERRUPTED || last == Status.ABORTED) {
                return null;
            }
        }
        return done.size() < steps.size() ? steps.get(done.size()) : null;
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
