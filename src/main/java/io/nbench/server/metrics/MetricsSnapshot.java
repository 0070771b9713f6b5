package io.nbench.server.metrics;

/**
 * Everything the server measured, at one instant: what the monitor's {@code metrics} and {@code metrics json}
 * print and the exit report shows.
 *
 * @param epochMillis          when it was taken
 * @param openConnections      connections open now (a gauge: {@code reset} leaves it alone)
 * @param sinceStart           cumulative counts since the server started ({@code reset} leaves them alone,
 *                             so that two snapshots can be subtracted by a client that never resets)
 * @param sinceStartHistograms cumulative histograms since start
 * @param sinceReset           counts since the last {@code reset} (or start)
 * @param sinceResetHistograms histograms since the last {@code reset} (or start)
 * @param last10s              counts over the last 10 s (less just after start), for current rates
 */
public record MetricsSnapshot(long epochMillis, long openConnections, Counters sinceStart,
                              Histograms sinceStartHistograms, Counters sinceReset, Histograms sinceResetHistograms,
                              Counters last10s) {
}
