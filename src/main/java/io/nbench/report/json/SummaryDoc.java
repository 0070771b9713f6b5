package io.nbench.report.json;

import java.util.List;
import java.util.Map;

/**
 * A combination's summary over its measured iterations.
 *
 * @param steadyState null in a document written before the trend test (absent)
 * @param resources   null when an iteration's resources are unknown (written as an empty object)
 * @param openLoop    null in the closed loop
 * @param warnings    the summary's warnings, one sentence each as the text output prints them after "Warning: "
 *                    ({@link io.nbench.report.RunWarnings}); null in a document written before them
 */
public record SummaryDoc(int iterations, long messages, Latency latencyNs, Throughput throughput,
                         SteadyState steadyState, ErrorsDoc errors, Resources resources, OpenLoop openLoop,
                         List<String> warnings) {

    /** A mean over iterations with its Student-t half-width ({@code ci}, null when N &lt; 2) at {@code level}. */
    public record Mean(Double mean, Double ci, int n, double level) {
    }

    /** The merged percentiles (the headline), min, max, mean, and each percentile's mean over iterations. */
    public record Latency(Map<String, Long> merged, Long min, Long max, Double mean, Map<String, Mean> meanOfIterations) {
    }

    /**
     * Throughput in msg/s ({@code mean} ± {@code ci}) and MiB/s of request payload; MiB/s in and out (the iterations'
     * mean), null in a document written before bytes were counted.
     */
    public record Throughput(Double mean, Double ci, int n, double level, double mibPerSec, Double mibInPerSec,
                             Double mibOutPerSec) {

        /** Without MiB/s in and out. */
        public Throughput(Double mean, Double ci, int n, double level, double mibPerSec) {
            this(mean, ci, n, level, mibPerSec, null, null);
        }
    }

    /** The trend test of the measured iterations' throughput ({@code trend} rising or falling: not steady). */
    public record SteadyState(String trend, String rule, Double change, Double changeLow, Double changeHigh, int n) {
    }

    /** Means and sums of the client's costs over the measured iterations. */
    public record Resources(Double cpuPercent, long gcCount, long gcMillis, Double allocatedPerMessage,
                            Double machineBusyPercent, Double stealPercent, Double othersPercent,
                            long disturbedIterations, long clientSaturatedIterations) {
    }

    /** The open loop over the measured iterations. */
    public record OpenLoop(double targetRate, Double achievedRate, long rateMissedIterations, long maxInflightHits,
                           boolean sendLagCaveat, Map<String, Long> uncorrectedNs, Map<String, Long> sendLagNs) {
    }
}
