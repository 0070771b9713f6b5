package io.nbench.server.metrics;

/**
 * The server's counts at one instant (cumulative since start), or the difference of two such instants.
 *
 * @param nanos          the time they cover (for a difference; since start for a cumulative one)
 * @param connections    connections accepted and served (refused ones not included)
 * @param cpuNanos       the server process's CPU time, user + system (-1 if unknown)
 */
public record Counters(long nanos, long requests, long rejected, long bytesIn, long bytesOut, long connections,
                       long protocolErrors, long idleClosed, long refused, long cpuNanos, long gcCount,
                       long gcMillis) {

    /** What happened between {@code base} and this. */
    public Counters minus(Counters base) {
        return new Counters(nanos - base.nanos, requests - base.requests, rejected - base.rejected,
                bytesIn - base.bytesIn, bytesOut - base.bytesOut, connections - base.connections,
                protocolErrors - base.protocolErrors, idleClosed - base.idleClosed, refused - base.refused,
                cpuNanos < 0 || base.cpuNanos < 0 ? -1 : cpuNanos - base.cpuNanos, gcCount - base.gcCount,
                gcMillis - base.gcMillis);
    }

    public double perSecond(long count) {
        return nanos <= 0 ? 0 : count * 1e9 / nanos;
    }

    /** CPU used over the time covered, in % of one core (200 = two cores busy); NaN if unknown. */
    public double cpuPercent() {
        return cpuNanos < 0 || nanos <= 0 ? Double.NaN : cpuNanos * 100.0 / nanos;
    }
}
