package io.nbench.client;

import io.nbench.report.CombinationResult;
import io.nbench.report.Status;
import java.util.List;

/**
 * A sweep's combinations in their planned order. A combination INTERRUPTED or ABORTED ends the sweep: the server
 * is gone or the user wants out, and later combinations would fail the same way.
 */
public final class PlannedSteps implements StepSource {

    private final List<ClientPlan.Step> steps;

    /** @param plan its steps, run in their order */
    public PlannedSteps(ClientPlan plan) {
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
}
