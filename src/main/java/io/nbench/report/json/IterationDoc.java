package io.nbench.report.json;

import java.util.Map;

/**
 * One iteration of a combination. Percentiles are by label ({@code p50}, {@code p99.9}) in the order asked, null
 * where nothing completed; histograms are HdrHistogram's compressed encoding in base64, decoded by the reader
 * that needs them ({@link io.nbench.stats.HistogramCodec}): each takes 260 KB once decoded.
 *
 * @param resources      the client's costs and the machine's; null when unknown (written as an empty object)
 * @param openLoop       null in the closed loop
 * @param connectLatency null unless {@code --requests-per-connection}
 * @param handshakeLatency null unless {@code --tls} and {@code --requests-per-connection}: the TLS handshake's part
 *                       of each reconnect (from the TCP connection's establishment to the handshake's end)
 * @param latencyByStatusClass HTTP: the responses' latency by status class ({@code 2xx} to {@code 5xx}, each with
 *                       its count, percentiles and histogram; every response is timed), else null
 * @param transfer       the bytes received and sent, whole on the wire; null in a document written before they were
 *                       counted
 * @param openingHandshakes the TLS handshakes of the connections opened before the first iteration, in the first
 *                       measured iteration (absent, 0, elsewhere and without TLS)
 */
public record IterationDoc(int index, boolean warmup, long messages, long wallNs, double msgPerSec, double mibPerSec,
                           Map<String, Long> latencyNs, ErrorsDoc errors, long clamped, boolean partial,
                           String histogram, Resources resources, OpenLoop openLoop, ConnectLatency connectLatency,
                           ConnectLatency handshakeLatency, Map<String, ConnectLatency> latencyByStatusClass,
                           Transfer transfer, long openingHandshakes) {

    /** Without bytes in and out nor opening handshakes (a document written before they were counted). */
    public IterationDoc(int index, boolean warmup, long messages, long wallNs, double msgPerSec, double mibPerSec,
                        Map<String, Long> latencyNs, ErrorsDoc errors, long clamped, boolean partial,
                        String histogram, Resources resources, OpenLoop openLoop, ConnectLatency connectLatency,
                        ConnectLatency handshakeLatency, Map<String, ConnectLatency> latencyByStatusClass) {
        this(index, warmup, messages, wallNs, msgPerSec, mibPerSec, latencyNs, errors, clamped, partial, histogram,
                resources, openLoop, connectLatency, handshakeLatency, latencyByStatusClass, null, 0);
    }

    /**
     * The bytes of the responses received ({@code bytesIn}) and of the completed messages' requests
     * ({@code bytesOut}), each whole on the wire (HTTP: status line, headers and body), and both per second of the
     * iteration's wall time in MiB/s.
     */
    public record Transfer(long bytesIn, long bytesOut, double mibInPerSec, double mibOutPerSec) {
    }

    /** Without latency by status class (not HTTP, or a document written before nbench kept it). */
    public IterationDoc(int index, boolean warmup, long messages, long wallNs, double msgPerSec, double mibPerSec,
                        Map<String, Long> latencyNs, ErrorsDoc errors, long clamped, boolean partial,
                        String histogram, Resources resources, OpenLoop openLoop, ConnectLatency connectLatency,
                        ConnectLatency handshakeLatency) {
        this(index, warmup, messages, wallNs, msgPerSec, mibPerSec, latencyNs, errors, clamped, partial, histogram,
                resources, openLoop, connectLatency, handshakeLatency, null);
    }

    /** Without a handshake latency (plain connections). */
    public IterationDoc(int index, boolean warmup, long messages, long wallNs, double msgPerSec, double mibPerSec,
                        Map<String, Long> latencyNs, ErrorsDoc errors, long clamped, boolean partial,
                        String histogram, Resources resources, OpenLoop openLoop, ConnectLatency connectLatency) {
        this(index, warmup, messages, wallNs, msgPerSec, mibPerSec, latencyNs, errors, clamped, partial, histogram,
                resources, openLoop, connectLatency, null, null);
    }

    /** Null figures are unknown. */
    public record Resources(Double cpuPercent, long gcCount, long gcMillis, Long allocatedBytes,
                            Double allocatedPerMessage, Double machineBusyPercent, Double stealPercent,
                            Double othersPercent, boolean disturbed, boolean clientSaturated) {
    }

    /** The open loop's figures; latencies from the intended send times, {@code uncorrected} from the actual ones. */
    public record OpenLoop(double targetRate, double achievedRate, boolean missed, long sent, long maxInflightHits,
                           boolean sendLagCaveat, Map<String, Long> uncorrectedNs, Map<String, Long> sendLagNs,
                           String uncorrectedHistogram, String sendLagHistogram) {
    }

    /**
     * The reconnects' latency with {@code --requests-per-connection}, or their TLS handshakes', or (HTTP) the
     * responses' of one status class.
     *
     * @param resumed the handshakes': how many of them resumed an earlier session; null for the reconnects' (and in
     *                documents written before nbench counted them)
     */
    public record ConnectLatency(long count, Map<String, Long> latencyNs, String histogram, Long resumed) {

        /** The reconnects' (no resumed count). */
        public ConnectLatency(long count, Map<String, Long> latencyNs, String histogram) {
            this(count, latencyNs, histogram, null);
        }
    }
}
