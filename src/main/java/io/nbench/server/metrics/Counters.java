package io.nbench.server.metrics;

/**
 * The server's counts at one instant (cumulative since start), or the difference of two such instants.
 *
 * <p>Every request received is accounted for: {@code received = requests (answered) + rejected + dropped +
 * droppedAtShutdown + in progress} (see {@link #inProgress}).
 *
 * @param nanos             the time they cover (for a difference; since start for a cumulative one)
 * @param received          requests decoded (their bytes are in {@code bytesIn} from then on)
 * @param requests          requests answered
 * @param dropped           requests received whose connection closed before their answer, while running
 * @param droppedAtShutdown requests received and not answered when the server stopped
 * @param connections       connections accepted and served (refused ones not included)
 * @param cpuNanos          the server process's CPU time, user + system (-1 if unknown)
 */
public record Counters(long nanos, long received, long requests, long rejected, long dropped, long droppedAtShutdown,
                       long bytesIn, long bytesOut, long connections, long protocolErrors, long idleClosed,
                       long refused, long cpuNanos, long gcCount, long gcMillis) {

    /** What happened between {@code base} and this. */
    public Counters minus(Counters base) {
        return new Counters(nanos - base.nanos, received - base.received, requests - base.requests,
                rejected - base.rejected, dropped - base.dropped, droppedAtShutdown - base.droppedAtShutdown,
                bytesIn - base.bytesIn, bytesOut - base.bytesOut, connections - base.connections,
                protocolErrors - base.protocolErrors, idleClosed - base.idleClosed, refused - base.refused,
                cpuNanos < 0 || base.cpuNanos < 0 ? -1 : cpuNanos - base.cpuNanos, gcCount - base.gcCount,
                gcMillis - base.gcMillis);
    }

    /**
     * Requests received and not yet answered, rejected or dropped: in the business pool's queue or being
     * worked on. Meaningful for cumulative counts (a difference may hold answers to requests received
     * before it began); never negative.
     */
    public long inProgress() {
        return Math.max(0, received - requests - rejected - dropped - droppedAtShutdown);
    }

    public double perSecond(long count) {
        return nanos <= 0 ? 0 : count * 1e9 / nanos;
    }

    /** CPU used over the time covered, in % of one core (200 = two cores busy); NaN if unknown. */
    public double cpuPercent() {
        return cpuNanos < 0 || nanos <= 0 ? Double.NaN : cpuNanos * 100.0 / nanos;
    }
}
