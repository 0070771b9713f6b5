package io.nbench.client.output;

import io.nbench.report.Environment;
import io.nbench.report.MeasuredServer;
import io.nbench.report.json.IntervalDoc;
import io.nbench.report.json.ResultDocument;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * What the result document says about the run besides its results: the host, the arguments and option values
 * as given, this run's id (the CSV's run_id too, to join one with the other), and each combination's
 * per-second figures, collected on the coordinator thread as the run goes.
 */
public final class RunRecord {

    private final String hostLabel;
    private final List<String> arguments;
    private final Map<String, Object> options;
    private final String runId = UUID.randomUUID().toString();
    private final Map<String, List<IntervalDoc>> intervals = new LinkedHashMap<>();
    private final MeasuredServer server;

    /**
     * @param hostLabel this host's name in the results, or null for the machine's host name
     * @param arguments the command line as given
     * @param options   every option with its effective value, defaults included, as JSON-friendly values
     */
    public RunRecord(String hostLabel, List<String> arguments, Map<String, Object> options) {
        this(hostLabel, arguments, options, null);
    }

    /** @param server the server measured, as far as the client knows it (null: not known) */
    public RunRecord(String hostLabel, List<String> arguments, Map<String, Object> options, MeasuredServer server) {
        this.server = server;
        this.hostLabel = hostLabel;
        this.arguments = List.copyOf(arguments);
        this.options = options;
    }

    public String runId() {
        return runId;
    }

    /** The host's name in the results: the label given, else the machine's. */
    public String host() {
        return hostLabel != null ? hostLabel : Environment.host();
    }

    /** The server measured, as far as the client knows it; null: not known. */
    public MeasuredServer server() {
        return server;
    }

    /** Where one combination's per-second figures go (its combinations[].intervals in the document). */
    List<IntervalDoc> intervalsOf(String combination) {
        return intervals.computeIfAbsent(combination, k -> new ArrayList<>());
    }

    private ResultDocument document;

    /** The builder of this run's result document: one environment for the file and stdout. */
    public ResultDocument document() {
        if (document == null) {
            document = new ResultDocument(Environment.capture(hostLabel), arguments, options).runId(runId)
                    .intervals(intervals).server(server);
        }
        return document;
    }
}
