package io.nbench.report;

import io.nbench.load.LoadSpec;
import io.nbench.load.RunResult;
import io.nbench.report.threshold.Threshold;
import io.nbench.sweep.Combination;
import io.nbench.transport.TlsSession;
import java.util.List;
import java.util.Map;

/**
 * One combination of a sweep, run and judged: what every output format reports.
 *
 * @param combination      its configuration keys
 * @param transport        the client transport's name
 * @param transportOptions the resolved {@code -O} options of that transport, as text
 * @param transportConfig  the client transport's effective configuration (e.g. the netty I/O type used)
 * @param run              the engine's result
 * @param thresholds       every {@code --threshold}, judged on this combination
 * @param status           PASS, FAIL, ABORTED or INTERRUPTED
 * @param reasons          why it is not PASS (empty when it is)
 * @param exitCode         what this combination alone would exit with (the first of 2, 1, 130, 4, 3, 0 that applies)
 * @param tls              what the client's first TLS connection negotiated; null without --tls (or no connection)
 */
public record CombinationResult(Combination combination, String transport, Map<String, String> transportOptions,
                                Map<String, String> transportConfig, RunResult run, List<Threshold.Outcome> thresholds,
                                Status status, List<String> reasons, int exitCode, TlsSession tls) {

    /** Without TLS. */
    public CombinationResult(Combination combination, String transport, Map<String, String> transportOptions,
                             Map<String, String> transportConfig, RunResult run, List<Threshold.Outcome> thresholds,
                             Status status, List<String> reasons, int exitCode) {
        this(combination, transport, transportOptions, transportConfig, run, thresholds, status, reasons, exitCode, null);
    }

    public LoadSpec spec() {
        return run.spec();
    }

    public boolean thresholdBreached() {
        return thresholds.stream().anyMatch(o -> !o.passed());
    }
}
