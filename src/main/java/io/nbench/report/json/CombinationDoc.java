package io.nbench.report.json;

import io.nbench.report.Status;
import io.nbench.transport.TlsSession;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One combination of a result document.
 *
 * @param startTime  ISO-8601 UTC, as written (a merge checks and compares it)
 * @param aborted    the abort reason, or null
 * @param abortCause its kind in lower case, or null
 * @param drain      what completed after a time-based run's last cut; null for a count-based run (and in a
 *                   merged document, which has no such field)
 * @param intervals  every second of every iteration (the {@code --format ndjson} interval lines); null: absent
 * @param serverStats the server's figures ({@code --server-stats}); null: absent
 * @param hosts      a merged document's figures of each host; null in a client's document (absent)
 */
public record CombinationDoc(String name, Map<String, String> keys, Status status, int exitCode, List<String> reasons,
                             Transport transport, LoadDoc load, String startTime, String aborted, String abortCause,
                             boolean interrupted, List<IterationDoc> iterations, SummaryDoc summary, DrainDoc drain,
                             RunErrors errors, List<IntervalDoc> intervals, ServerStatsDoc serverStats,
                             List<ThresholdDoc> thresholds, List<Host> hosts) {

    /** A merged document's combination: {@code hosts} given, no drain. */
    public boolean merged() {
        return hosts != null;
    }

    /**
     * The client transport: its name, resolved {@code -O} options and effective configuration, and what its first
     * TLS connection negotiated (null without --tls).
     */
    public record Transport(String name, Map<String, String> options, Map<String, String> effective,
                            TlsSession tls) {
    }

    /**
     * The whole run's errors (warmup included) by class, the late responses and reconnects, and the first
     * message of each class by its label.
     */
    public record RunErrors(ErrorsDoc counts, long lateResponses, long reconnects, Map<String, String> first,
                            Map<String, Long> statuses) {

        /**
         * HTTP: responses by status code ({@code "404"}), whole run; empty for other protocols. Kept in the order
         * given (code order): the document, the page and the CSV list codes in it.
         */
        public RunErrors {
            statuses = Collections.unmodifiableMap(new LinkedHashMap<>(statuses));
        }

        public RunErrors(ErrorsDoc counts, long lateResponses, long reconnects, Map<String, String> first) {
            this(counts, lateResponses, reconnects, first, Map.of());
        }
    }

    /** One host's figures in a merged document, side by side (never summed). */
    public record Host(String file, String host, long messages, Double throughput, SummaryDoc.Resources resources) {
    }
}
