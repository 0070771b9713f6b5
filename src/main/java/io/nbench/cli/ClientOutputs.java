package io.nbench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.load.LoadSpec;
import io.nbench.load.RunListener;
import io.nbench.report.AtomicFiles;
import io.nbench.report.CombinationResult;
import io.nbench.report.CompositeListener;
import io.nbench.report.Environment;
import io.nbench.report.ProgressLine;
import io.nbench.report.Status;
import io.nbench.report.SweepResult;
import io.nbench.report.SweepTable;
import io.nbench.report.TextReport;
import io.nbench.report.Tty;
import io.nbench.report.csv.CsvReport;
import io.nbench.report.hdr.HdrIntervalLog;
import io.nbench.report.hdr.PercentileFiles;
import io.nbench.report.json.NdjsonStream;
import io.nbench.report.json.ResultDocument;
import io.nbench.report.threshold.Threshold;
import io.nbench.sweep.Combination;
import io.nbench.units.Durations;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

/**
 * Everything the client writes besides the engine's work: stdout in the chosen {@code --format}, the
 * progress line, {@code --out}, {@code --hdr-log} and {@code --hgrm}, all through {@link AtomicFiles}. Files
 * that can be checked before a long run are checked first; the figures are printed before any file is
 * written, so a full disk loses the file, never the figures on screen; the final {@code Result:} line comes
 * after the files, so it never says PASS when one could not be written.
 */
final class ClientOutputs {

    private final CommandSpec spec;
    private final OutputOptions options;
    private final PrintWriter out;
    private final PrintWriter err;
    private final CsvReport csv;
    private final NdjsonStream ndjson;
    private final ProgressLine progress;
    private final HdrIntervalLog hdrLog;
    private final PercentileFiles hgrm;
    private final int combinations;
    private final int textColumns;
    private boolean closed;
    /** Each combination's per-second figures, by name, for the result document; filled on the coordinator thread. */
    private final Map<String, List<JsonNode>> intervals = new LinkedHashMap<>();
    /** This run's id: the CSV's run_id and the result document's runId, to join one with the other. */
    private final String runId;

    private ClientOutputs(CommandSpec spec, OutputOptions options, PrintWriter out, PrintWriter err, CsvReport csv,
                          NdjsonStream ndjson, ProgressLine progress, HdrIntervalLog hdrLog, PercentileFiles hgrm,
                          int combinations, int textColumns, String runId) {
        this.textColumns = textColumns;
        this.runId = runId;
        this.spec = spec;
        this.options = options;
        this.out = out;
        this.err = err;
        this.csv = csv;
        this.ndjson = ndjson;
        this.progress = progress;
        this.hdrLog = hdrLog;
        this.hgrm = hgrm;
        this.combinations = combinations;
    }

    /** A result file cannot be written: exit 1 with this one-line message. */
    static final class CannotWrite extends Exception {
        private static final long serialVersionUID = 1L;

        CannotWrite(String option, Path file, IOException cause) {
            super("cannot write " + option + " " + file + ": " + AtomicFiles.describe(cause), cause);
        }
    }

    static ClientOutputs open(CommandSpec spec, OutputOptions o, PrintWriter out, PrintWriter err, List<String> keys,
                              List<Double> percentiles, int combinations) throws CannotWrite {
        PercentileFiles hgrm = null;
        if (o.hgrm != null) {
            try {
                hgrm = new PercentileFiles(o.hgrm, combinations);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
            Path first = Path.of(o.hgrm.replace(PercentileFiles.PLACEHOLDER, "x"));
            check("--hgrm", first);
        }
        if (o.out != null) {
            check("--out", o.out);
        }
        HdrIntervalLog hdrLog = null;
        if (o.hdrLog != null) {
            try {
                hdrLog = HdrIntervalLog.open(o.hdrLog);
            } catch (IOException e) {
                throw new CannotWrite("--hdr-log", o.hdrLog, e);
            }
        }
        String runId = java.util.UUID.randomUUID().toString();
        CsvReport csv = null;
        if (o.format == OutputOptions.Format.CSV) {
            csv = new CsvReport(out, keys, runId, o.hostLabel != null ? o.hostLabel : Environment.host());
            if (!o.noHeader) {
                csv.header();
            }
        }
        NdjsonStream ndjson = o.format == OutputOptions.Format.NDJSON ? new NdjsonStream(out) : null;
        ProgressLine progress = o.progressLine(err, combinations);
        // Text on a terminal: each iteration as lines of at most 120 columns; in a pipe or file one line each.
        int textColumns = o.format == OutputOptions.Format.TEXT && !o.quiet && Tty.stdout() ? Tty.TEXT_COLUMNS : 0;
        return new ClientOutputs(spec, o, out, err, csv, ndjson, progress, hdrLog, hgrm, combinations, textColumns,
                runId);
    }

    private static void check(String option, Path file) throws CannotWrite {
        try {
            AtomicFiles.checkWritable(file);
        } catch (IOException e) {
            throw new CannotWrite(option, file, e);
        }
    }

    /** With --server-stats: each combination's server figures, for the result document. */
    void serverStats(Map<String, ? extends JsonNode> byCombination) {
        this.serverStats = byCombination;
    }

    private Map<String, ? extends JsonNode> serverStats = Map.of();

    private boolean text() {
        return options.format == OutputOptions.Format.TEXT;
    }

    ForCombination forCombination(Combination c, int number, LoadSpec load) {
        List<RunListener> listeners = new ArrayList<>();
        if (progress != null) {
            listeners.add(progress.forCombination(c, number)); // first: it erases its line before others print
        }
        TextReport report = text() ? new TextReport(out, load, options.quiet, textColumns) : null;
        if (report != null) {
            listeners.add(report);
        }
        if (csv != null) {
            listeners.add(csv.forCombination(c));
        }
        // Every second's figures go to the result document too (its combinations[].intervals), for the report's
        // charts over time; with --format ndjson the same listener prints them.
        List<JsonNode> seconds = new ArrayList<>();
        intervals.put(c.name(), seconds);
        listeners.add(ndjson != null ? ndjson.forCombination(c, seconds::add) : NdjsonStream.intervals(c, seconds::add));
        if (hdrLog != null) {
            listeners.add(hdrLog.forCombination(c));
        }
        return new ForCombination(c, number, report, new CompositeListener(listeners));
    }

    /** The outputs of one combination. */
    final class ForCombination {
        private final Combination combination;
        private final int number;
        private final TextReport report;
        private final RunListener listener;

        ForCombination(Combination combination, int number, TextReport report, RunListener listener) {
            this.combination = combination;
            this.number = number;
            this.report = report;
            this.listener = listener;
        }

        RunListener listener() {
            return listener;
        }

        void header(String target, String transport, Map<String, String> config, String writtenEvent) {
            if (report != null) {
                if (combinations > 1) {
                    out.println("Combination " + number + "/" + combinations + ": " + combination.name());
                }
                report.header(target, transport, config, writtenEvent);
            }
        }

        /** Text: the summary block, thresholds and the Result line. Other formats: problems on stderr. */
        void summary(CombinationResult r, String maxErrors) {
            String where = " [" + combination.name() + "]";
            if (report != null) {
                report.summary(r.run());
                for (Threshold.Outcome o : r.thresholds()) {
                    out.println("Threshold " + (o.passed() ? "passed: " : "BREACHED: ") + o.describe());
                }
                if (combinations > 1) {
                    out.println(resultLine(r, List.of())); // a single run's verdict waits for its files (finish)
                }
                out.flush();
            } else {
                for (Threshold.Outcome o : r.thresholds()) {
                    if (!o.passed()) {
                        err.println("nbench client: threshold breached" + where + ": " + o.describe());
                    }
                }
                List<String> failures = r.reasons().stream().filter(x -> !x.startsWith("threshold breached")).toList();
                if (r.status() == Status.FAIL && !failures.isEmpty()) {
                    err.println("nbench client: FAIL" + where + ": " + String.join("; ", failures));
                }
            }
            if (r.status() == Status.ABORTED) {
                err.println("nbench client: run aborted: " + r.run().abortReason());
            }
            err.flush();
        }

    }

    /** The verdict of one combination; a result file that could not be written makes it ABORTED. */
    private static String resultLine(CombinationResult r, List<String> writeErrors) {
        if (!writeErrors.isEmpty()) {
            List<String> why = new ArrayList<>();
            switch (r.status()) {
                case PASS -> { }
                case INTERRUPTED -> why.add("interrupted");
                case ABORTED -> why.add(r.run().abortReason());
                case FAIL -> why.addAll(r.reasons());
            }
            why.addAll(writeErrors);
            return "Result: ABORTED: " + String.join("; ", why);
        }
        return switch (r.status()) {
            case PASS -> "Result: PASS";
            case INTERRUPTED -> "Result: INTERRUPTED (partial results above)";
            case ABORTED -> "Result: ABORTED: " + r.run().abortReason();
            case FAIL -> "Result: FAIL: " + String.join("; ", r.reasons());
        };
    }

    /**
     * After the last combination: the result files, then the sweep table and the final Result line, and for
     * json/ndjson the document on stdout. Returns the exit code, 1 if a file could not be written.
     */
    int finish(SweepResult result, boolean sweep) {
        List<String> writeErrors = new ArrayList<>();
        if (hdrLog != null) {
            try {
                closed = true;
                hdrLog.close();
            } catch (IOException e) {
                writeErrors.add(new CannotWrite("--hdr-log", options.hdrLog, e).getMessage());
            }
        }
        if (hgrm != null) {
            for (CombinationResult c : result.combinations()) {
                try {
                    hgrm.write(c.combination(), c.run().summary().merged());
                } catch (IOException e) {
                    writeErrors.add(new CannotWrite("--hgrm", hgrm.pathFor(c.combination()), e).getMessage());
                }
            }
        }
        ResultDocument document = new ResultDocument(Environment.capture(options.hostLabel), arguments(), optionValues()).runId(runId)
                .intervals(intervals).serverStats(serverStats);
        if (options.out != null) {
            try {
                byte[] bytes = (ResultDocument.pretty(document.build(result)) + "\n").getBytes(StandardCharsets.UTF_8);
                AtomicFiles.write(options.out, bytes);
            } catch (IOException e) {
                writeErrors.add(new CannotWrite("--out", options.out, e).getMessage());
            }
        }
        SweepResult last = result;
        for (String e : writeErrors) {
            err.println("nbench client: " + e);
            last = last.withError(result.error() != null ? result.error() : e,
                    ExitCode.first(last.exitCode(), ExitCode.COULD_NOT_RUN));
        }
        err.flush();
        if (text() && sweep && !result.combinations().isEmpty()) {
            SweepTable.print(out, result);
            out.println("Result: " + last.status() + (last.exitCode() == ExitCode.OK ? ""
                    : " (exit code " + last.exitCode() + ")") + (writeErrors.isEmpty() ? ""
                    : ": " + String.join("; ", writeErrors)));
        } else if (text() && result.combinations().size() == 1) {
            out.println(resultLine(result.combinations().get(0), writeErrors));
        }
        if (options.format == OutputOptions.Format.JSON) {
            out.println(ResultDocument.pretty(document.build(last)));
        } else if (ndjson != null) {
            ndjson.last(document.build(last));
        }
        out.flush();
        return last.exitCode();
    }

    /** Drops an interval log that {@link #finish} did not complete (the client ended another way). */
    void close() {
        if (hdrLog != null && !closed) {
            hdrLog.abandon();
        }
    }

    private List<String> arguments() {
        return spec.commandLine().getParseResult() == null ? List.of()
                : List.copyOf(spec.commandLine().getParseResult().originalArgs());
    }

    /** Every client option with its effective value, defaults included, keyed by its long name without dashes. */
    private Map<String, Object> optionValues() {
        Map<String, Object> values = new LinkedHashMap<>();
        for (OptionSpec o : spec.options()) {
            if (o.usageHelp() || o.versionHelp()) {
                continue;
            }
            values.put(o.longestName().replaceFirst("^-+", ""), jsonValue(o.getValue()));
        }
        return values;
    }

    /** Option values as JSON-friendly types: durations and sizes as on the command line, enums lower case. */
    private static Object jsonValue(Object v) {
        if (v == null || v instanceof Number || v instanceof Boolean || v instanceof String) {
            return v;
        }
        if (v instanceof Duration d) {
            return Durations.format(d);
        }
        if (v instanceof Enum<?> e) {
            return e.name().toLowerCase(Locale.ROOT);
        }
        if (v instanceof List<?> list) {
            return list.stream().map(ClientOutputs::jsonValue).toList();
        }
        if (v instanceof Map<?, ?> map) {
            Map<String, Object> m = new LinkedHashMap<>();
            map.forEach((k, x) -> m.put(String.valueOf(k), jsonValue(x)));
            return m;
        }
        return v.toString();
    }
}
