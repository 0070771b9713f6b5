package io.nbench.client;

import io.nbench.report.CombinationResult;
import io.nbench.report.SweepResult;
import java.util.List;

/**
 * Where a {@link ClientRun} takes its combinations from, one at a time: a sweep's planned list, or a search whose
 * next step depends on how the last one went (a capacity search's next rate).
 */
public interface StepSource {

    /**
     * The next combination to run, or null: the run ends.
     *
     * @param done every combination run so far, the last one just judged
     * @throws CouldNotRun the next step cannot be made (the run ends ABORTED with this reason)
     */
    ClientPlan.Step next(List<CombinationResult> done) throws CouldNotRun;

    /** How one step is judged; by default as the plan says. */
    default Verdict verdict(ClientPlan.Step step, Verdict planned) {
        return planned;
    }

    /** The run's result as the source judges it once no step is left; by default the sweep's own verdict. */
    default SweepResult conclude(SweepResult sweep) {
        return sweep;
    }
}
