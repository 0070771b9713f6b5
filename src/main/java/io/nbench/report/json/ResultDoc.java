package io.nbench.report.json;

import io.nbench.report.Status;
import java.util.List;
import java.util.Map;

/**
 * A result document ({@code nbench-result/1}) as types: what {@link ResultDocReader} reads and
 * {@link ResultDocWriter} writes, field for field in the document's order (docs/result-schema.md says what each
 * means). A client's document comes from {@link ResultDocument}, a merged one from {@code report --merge}.
 *
 * @param environment   the client machine and JVM ({@code nbench}, {@code host}, ...), in the order written
 * @param combinations  in the order they ran
 * @param sources       the documents merged into this one; null in a client's document (the field is absent)
 * @param capacity      a capacity search ({@code --find-rate}); null otherwise (the field is absent)
 * @param curve         latency against load, of a capacity search (written in {@code capacity}) or a rate sweep
 *                      (written at the top); null otherwise (the field is absent)
 */
public record ResultDoc(String nbench, String runId, Status status, int exitCode, String error,
                        Map<String, String> environment, ConfigurationDoc configuration,
                        List<CombinationDoc> combinations, List<Source> sources, CapacityDoc capacity,
                        CurveDoc curve) {

    /** A document without a curve. */
    public ResultDoc(String nbench, String runId, Status status, int exitCode, String error,
                     Map<String, String> environment, ConfigurationDoc configuration,
                     List<CombinationDoc> combinations, List<Source> sources, CapacityDoc capacity) {
        this(nbench, runId, status, exitCode, error, environment, configuration, combinations, sources, capacity, null);
    }

    /** A document without a capacity search. */
    public ResultDoc(String nbench, String runId, Status status, int exitCode, String error,
                     Map<String, String> environment, ConfigurationDoc configuration,
                     List<CombinationDoc> combinations, List<Source> sources) {
        this(nbench, runId, status, exitCode, error, environment, configuration, combinations, sources, null);
    }

    /** The only combination's summary ({@code jq .summary.throughput.mean}); null in a sweep. */
    public SummaryDoc summary() {
        return combinations.size() == 1 ? combinations.get(0).summary() : null;
    }

    /** A merged document's host: which file, its run and how it ended. */
    public record Source(String file, String runId, String host, Status status) {
    }
}
