package io.nbench.load;

import io.nbench.stats.DrainResult;
import io.nbench.stats.ErrorCounts;
import io.nbench.stats.IterationResult;
import io.nbench.stats.Summary;
import io.nbench.transport.ErrorKind;
import java.util.List;
import java.util.Map;

/**
 * Everything a client run produced.
 *
 * @param spec           the workload
 * @param iterations     warmup and measured iterations in order (the last one partial if the run was cut short)
 * @param summary        over measured iterations
 * @param errors         errors of the whole run, warmup included, by class
 * @param lateResponses  responses that arrived after their message had timed out, or with an unknown id
 * @param firstErrors    the first message seen for each error class, to name the cause
 * @param abortReason    why the run stopped early, or null: one line naming the cause and the fix
 * @param abortCause     the kind of {@code abortReason}, or null
 * @param reconnects     connections closed and reopened because an echo message without an id timed out
 *                       (first-in first-out matching cannot go on past a lost reply), or because the HTTP
 *                       server closed them after saying so (Connection: close)
 * @param interrupted    stopped by SIGINT/SIGTERM
 * @param startEpochMillis wall-clock time the first iteration started (interval times are relative to it)
 * @param drain          time-based runs: what completed after the last iteration was cut, in no iteration;
 *                       null for count-based runs (each iteration waits for its own responses)
 * @param statuses       HTTP: responses of the whole run (warmup included) by status code; empty otherwise
 */
public record RunResult(LoadSpec spec, List<IterationResult> iterations, Summary summary, ErrorCounts.Snapshot errors,
                        long lateResponses, Map<ErrorKind, String> firstErrors, String abortReason,
                        AbortCause abortCause, long reconnects, boolean interrupted, long startEpochMillis,
                        DrainResult drain, Map<Integer, Long> statuses) {

    public RunResult {
        statuses = Map.copyOf(statuses);
    }

    /** A run whose responses carry no status code (framed, echo). */
    public RunResult(LoadSpec spec, List<IterationResult> iterations, Summary summary, ErrorCounts.Snapshot errors,
                     long lateResponses, Map<ErrorKind, String> firstErrors, String abortReason,
                     AbortCause abortCause, long reconnects, boolean interrupted, long startEpochMillis,
                     DrainResult drain) {
        this(spec, iterations, summary, errors, lateResponses, firstErrors, abortReason, abortCause, reconnects,
                interrupted, startEpochMillis, drain, Map.of());
    }

    public boolean aborted() {
        return abortReason != null;
    }
}
