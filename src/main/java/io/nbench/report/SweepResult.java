package io.nbench.report;

import java.util.List;

/**
 * A whole client invocation: every combination that ran, and how it ended.
 *
 * @param target       host:port
 * @param keys         the combination keys, in column order
 * @param combinations in the order they ran
 * @param error        why the invocation could not go on (cannot connect, results not written), or null
 * @param status       the worst combination's status (ABORTED when {@code error} is set)
 * @param exitCode     the process exit code: the first that applies of the combinations' codes and the run's own
 */
public record SweepResult(String target, List<String> keys, List<CombinationResult> combinations, String error,
                          Status status, int exitCode) {

    public SweepResult withError(String error, int exitCode) {
        return new SweepResult(target, keys, combinations, error, status.worse(Status.ABORTED), exitCode);
    }
}
