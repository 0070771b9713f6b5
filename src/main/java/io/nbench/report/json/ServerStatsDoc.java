package io.nbench.report.json;

import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * The server's own figures over each measured iteration ({@code nbench client --server-stats}).
 *
 * @param monitor    {@code host:port}
 * @param error      why later iterations have none (the monitor went away), else null
 * @param iterations the difference of the server's cumulative figures over each measured iteration
 */
public record ServerStatsDoc(String monitor, String error, List<Iteration> iterations) {

    /** One measured iteration on the server: {@code index} as in the client's iterations; CPU null if unknown. */
    public record Iteration(int index, long nanos, long requests, long rejected, long protocolErrors,
                            long connections, long bytesIn, long bytesOut, Double cpuPercent, long gcCount,
                            long gcMillis, Timing processingNanos, Timing queueWaitNanos) {

        /** The same figures under another index ({@code nbench run} numbers its rounds' iterations on). */
        public Iteration renumbered(int newIndex) {
            return new Iteration(newIndex, nanos, requests, rejected, protocolErrors, connections, bytesIn, bytesOut,
                    cpuPercent, gcCount, gcMillis, processingNanos, queueWaitNanos);
        }
    }

    /** A server histogram's summary in ns (all 0 when {@code count} is 0). */
    public record Timing(long count, long min, double mean, long p50, long p90, long p99, long p999, long max) {

        /** The summary of {@code h}, as the server's {@code metrics json} gives its own histograms. */
        public static Timing of(Histogram h) {
            boolean empty = h.getTotalCount() == 0;
            return new Timing(h.getTotalCount(), empty ? 0 : h.getMinValue(), empty ? 0 : h.getMean(),
                    h.getValueAtPercentile(50), h.getValueAtPercentile(90), h.getValueAtPercentile(99),
                    h.getValueAtPercentile(99.9), h.getMaxValue());
        }
    }
}
