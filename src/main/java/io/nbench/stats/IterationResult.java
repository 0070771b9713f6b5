package io.nbench.stats;

import io.nbench.resources.ResourceUsage;
import org.HdrHistogram.Histogram;

/**
 * One iteration's figures.
 *
 * @param index        1-based within its kind (warmup or measured)
 * @param warmup       warmup iterations are reported but not summarized
 * @param messages     messages completed (responses in rtt mode, writes in send mode)
 * @param wallNanos    from the iteration's start to its last completion (or its time boundary)
 * @param payloadBytes request payload bytes per message, for MiB/s
 * @param latency      the iteration's latency histogram in ns
 * @param errors       errors by class during the iteration
 * @param clamped      values beyond the histogram's range, recorded as its maximum
 * @param partial      cut short (run aborted or interrupted)
 * @param resources    the client's CPU, GC and allocation, and the machine's CPU, during the iteration
 * @param openLoop     open-loop figures (uncorrected latency, send lag, rate), or null in the closed loop;
 *                     in the open loop {@code latency} is corrected for coordinated omission
 * @param connectLatency with {@code --requests-per-connection}: the time each reconnect took (ns), else null
 * @param handshakeLatency with {@code --tls} and {@code --requests-per-connection}: the TLS handshake's part of
 *                       each reconnect (ns, from the TCP connection's establishment to the handshake's end), else null
 * @param resumedHandshakes how many of {@code handshakeLatency}'s handshakes resumed an earlier session (0 without)
 * @param statusClasses HTTP: {@code latency} by status class (every response is timed), else null
 * @param bytesIn      the bytes of the responses received in the iteration, all of each on the wire (header and
 *                     payload; HTTP: status line, headers and body); -1 when unknown (a document without it)
 * @param bytesOut     the bytes of the requests of the messages completed, all of each on the wire; -1 when unknown
 * @param openingHandshakes the TLS handshakes of the connections the run opened before its first iteration: in the
 *                     first measured iteration only, else 0 ({@code handshakeLatency} holds the reconnects')
 */
public record IterationResult(int index, boolean warmup, long messages, long wallNanos, int payloadBytes,
                              Histogram latency, ErrorCounts.Snapshot errors, long clamped,
                              boolean partial, ResourceUsage resources,
                              OpenLoopFigures openLoop, Histogram connectLatency, Histogram handshakeLatency,
                              long resumedHandshakes, StatusClassLatency statusClasses, long bytesIn, long bytesOut,
                              long openingHandshakes) {

    /** Without bytes in and out (unknown) nor opening handshakes. */
    public IterationResult(int index, boolean warmup, long messages, long wallNanos, int payloadBytes,
                           Histogram latency, ErrorCounts.Snapshot errors, long clamped,
                           boolean partial, ResourceUsage resources,
                           OpenLoopFigures openLoop, Histogram connectLatency, Histogram handshakeLatency,
                           long resumedHandshakes, StatusClassLatency statusClasses) {
        this(index, warmup, messages, wallNanos, payloadBytes, latency, errors, clamped, partial, resources, openLoop,
                connectLatency, handshakeLatency, resumedHandshakes, statusClasses, -1, -1, 0);
    }

    /** Without latency by status class (not HTTP, or read from a document without it). */
    public IterationResult(int index, boolean warmup, long messages, long wallNanos, int payloadBytes,
                           Histogram latency, ErrorCounts.Snapshot errors, long clamped,
                           boolean partial, ResourceUsage resources,
                           OpenLoopFigures openLoop, Histogram connectLatency, Histogram handshakeLatency,
                           long resumedHandshakes) {
        this(index, warmup, messages, wallNanos, payloadBytes, latency, errors, clamped, partial, resources, openLoop,
                connectLatency, handshakeLatency, resumedHandshakes, null);
    }

    /** Without a handshake latency (plain connections, or figures read from a document without one). */
    public IterationResult(int index, boolean warmup, long messages, long wallNanos, int payloadBytes,
                           Histogram latency, ErrorCounts.Snapshot errors, long clamped,
                           boolean partial, ResourceUsage resources,
                           OpenLoopFigures openLoop, Histogram connectLatency) {
        this(index, warmup, messages, wallNanos, payloadBytes, latency, errors, clamped, partial, resources, openLoop,
                connectLatency, null, 0, null);
    }

    public double messagesPerSecond() {
        return wallNanos == 0 ? 0 : messages * 1e9 / wallNanos;
    }

    /** MiB/s of request payload (the request's body for HTTP): what {@code mibPerSec} has always said. */
    public double mibPerSecond() {
        return messagesPerSecond() * payloadBytes / (1024.0 * 1024.0);
    }

    /** Whether {@link #bytesIn} and {@link #bytesOut} are known. */
    public boolean transferKnown() {
        return bytesIn >= 0 && bytesOut >= 0;
    }

    /** MiB/s of responses received, whole on the wire; NaN when unknown. */
    public double mibInPerSecond() {
        return perSecond(bytesIn);
    }

    /** MiB/s of requests sent, whole on the wire; NaN when unknown. */
    public double mibOutPerSecond() {
        return perSecond(bytesOut);
    }

    private double perSecond(long bytes) {
        return bytes < 0 ? Double.NaN : wallNanos == 0 ? 0 : bytes * 1e9 / wallNanos / (1024.0 * 1024.0);
    }

    /** Heap bytes the client allocated per completed message (JMH's gc.alloc.rate.norm), -1 if unknown. */
    public double allocatedPerMessage() {
        return resources.allocatedPerMessage(messages);
    }

    /** The latency at a percentile in ns; 100 means the true maximum. */
    public long percentile(double p) {
        return Percentiles.valueAt(latency, p);
    }
}
