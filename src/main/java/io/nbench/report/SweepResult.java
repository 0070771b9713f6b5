package io.nbench.report;

import io.nbench.capacity.Capacity;
import java.util.List;

/**
 * A whole client invocation: every combination that ran, and how it ended.
 *
 * @param target       host:port
 * @param keys         the combination keys, in column order
 * @param combinations in the order they ran
 * @param error        why the invocation could not go on (cannot connect, results not written), or null
 * @param status       the worst combination's status (ABORTED when {@code error} is set); with a capacity search,
 *                     the search's
 * @param exitCode     the process exit code: the first that applies of the combinations' codes and the run's own
 * @param capacity     with {@code --find-rate}: what the search found, its steps being {@code combinations} after
 *                     the first (the closed-loop probe); null otherwise
 * @param curve        latency against load: a capacity search's steps or a rate sweep's ({@code --rate-sweep});
 *                     null otherwise
 */
public record SweepResult(String target, List<String> keys, List<CombinationResult> combinations, String error,
                          Status status, int exitCode, Capacity capacity, Curve curve) {

    /** A run whose curve, if any, is its capacity search's steps. */
    public SweepResult(String target, List<String> keys, List<CombinationResult> combinations, String error,
                       Status status, int exitCode, Capacity capacity) {
        this(target, keys, combinations, error, status, exitCode, capacity,
                capacity == null ? null : Curve.ofSearch(capacity, combinations));
    }

    public SweepResult(String target, List<String> keys, List<CombinationResult> combinations, String error,
                       Status status, int exitCode) {
        this(target, keys, combinations, error, status, exitCode, null, null);
    }

    public SweepResult withError(String error, int exitCode) {
        return new SweepResult(target, keys, combinations, error, status.worse(Status.ABORTED), exitCode, capacity,
                curve);
    }
}
