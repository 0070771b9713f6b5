package io.nbench.server.metrics;

import org.HdrHistogram.Histogram;

/**
 * The server's histograms: processing time and queue wait in ns, request and response sizes in bytes.
 * Copies, owned by whoever holds this.
 */
public record Histograms(Histogram processing, Histogram queueWait, Histogram requestSize, Histogram responseSize) {

    static Histograms empty() {
        return new Histograms(StripedRecorder.accumulator(), StripedRecorder.accumulator(),
                StripedRecorder.accumulator(), StripedRecorder.accumulator());
    }

    Histograms copy() {
        return new Histograms(processing.copy(), queueWait.copy(), requestSize.copy(), responseSize.copy());
    }

    void reset() {
        processing.reset();
        queueWait.reset();
        requestSize.reset();
        responseSize.reset();
    }
}
