package io.nbench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.client.ExitCode;
import io.nbench.report.AtomicFiles;
import io.nbench.report.Environment;
import io.nbench.report.Tty;
import io.nbench.report.compare.CapacityComparison;
import io.nbench.report.compare.CompareBlocks;
import io.nbench.report.compare.CompareFormats;
import io.nbench.report.compare.Comparison;
import io.nbench.report.compare.ResultFile;
import io.nbench.report.hdr.IntervalLogMerge;
import io.nbench.report.html.HtmlReport;
import io.nbench.report.json.ResultDocWriter;
import io.nbench.report.json.ResultDocument;
import io.nbench.transport.Transport;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What {@code nbench run} keeps and shows once every server is measured, from the documents its clients handed
 * over (none is read back from a file): each kept in {@code --results-dir}, the interval logs joined into
 * {@code --hdr-log}, the comparison over every server, the {@code --report} page.
 */
final class RunResults {

    private final Path resultsDir;
    /** {@code run --report}: the HTML page of every server's results, or null. */
    private final Path report;
    private final Path hdrLog;

    RunResults(Path resultsDir, Path report, Path hdrLog) {
        this.resultsDir = resultsDir;
        this.report = report;
        this.hdrLog = hdrLog;
    }

    /** Returns 1 if a file could not be written or a document not used. */
    int finish(List<RunFiles.Measured> measured, PrintWriter out, PrintWriter err) {
        int code = ExitCode.OK;
        List<Path> kept = new ArrayList<>();
        List<ResultFile> results = new ArrayList<>();
        List<String> compared = new ArrayList<>();
        List<HtmlReport.Source> pages = new ArrayList<>();
        List<CapacityComparison.Named> capacities = new ArrayList<>();
        for (RunFiles.Measured m : measured) {
            List<ResultFile> documents = new ArrayList<>();
            Path keptLast = null;
            for (RunFiles.Document d : m.documents()) {
                Path keep = resultsDir == null ? null : resultsDir.resolve(d.name());
                try {
                    documents.add(ResultFile.of(keep != null ? keep : Path.of(d.name()), d.document()));
                    if (report != null) {
                        pages.add(new HtmlReport.Source("server " + m.server().name() + (keep != null ? ", " + keep
                                : ""), d.document(), false));
                    }
                } catch (ResultFile.Unreadable e) {
                    err.println("nbench run: " + e.getMessage());
                    code = ExitCode.first(code, ExitCode.COULD_NOT_RUN);
                }
                if (keep != null) {
                    try {
                        AtomicFiles.write(keep, bytes(d));
                        kept.add(keep);
                        keptLast = keep;
                    } catch (IOException e) {
                        err.println("nbench run: cannot write --results-dir file " + keep + ": " + AtomicFiles.describe(e));
                        code = ExitCode.first(code, ExitCode.COULD_NOT_RUN);
                    }
                }
            }
            if (!documents.isEmpty()) {
                results.add(joined(m.server(), documents, keptLast));
                compared.add(m.server().name());
                capacities.add(new CapacityComparison.Named("server " + m.server().name(),
                        m.documents().get(m.documents().size() - 1).document().capacity()));
            }
        }
        code = ExitCode.first(code, joinLogs(measured, err));
        if (CapacityComparison.any(capacities)) {
            // Each server's steps ran at its own rates: step against step would compare different loads.
            CapacityComparison.print(out, capacities);
        } else {
            compare(results, compared, out);
        }
        if (report != null && !pages.isEmpty()) {
            JsonNode comparison = results.size() >= 2
                    ? CompareFormats.document(results, Comparison.compare(results), List.of(), ExitCode.OK) : null;
            try {
                HtmlReport.write(report, pages, comparison, Environment.version());
                out.println("Report: " + report);
            } catch (IOException e) {
                err.println("nbench run: cannot write --report " + report + ": " + AtomicFiles.describe(e));
                code = ExitCode.first(code, ExitCode.COULD_NOT_RUN);
            }
        }
        if (!kept.isEmpty()) {
            out.println("Result documents: " + kept.stream().map(Path::toString).collect(Collectors.joining(", ")));
        }
        err.flush();
        return code;
    }

    /** The document as its client wrote it, byte for byte; one run built, as {@code --out} writes one. */
    private static byte[] bytes(RunFiles.Document d) throws IOException {
        return d.written() != null ? Files.readAllBytes(d.written())
                : (ResultDocument.pretty(ResultDocWriter.document(d.document())) + "\n").getBytes(StandardCharsets.UTF_8);
    }

    /** Every server's interval logs joined into {@code --hdr-log}, the server in each tag. */
    private int joinLogs(List<RunFiles.Measured> measured, PrintWriter err) {
        if (hdrLog == null) {
            return ExitCode.OK;
        }
        List<Map.Entry<String, Path>> logs = new ArrayList<>();
        measured.forEach(m -> m.hdrLogs().stream().filter(Files::isRegularFile)
                .forEach(log -> logs.add(Map.entry(m.server().name(), log))));
        if (!logs.isEmpty()) {
            try {
                IntervalLogMerge.write(hdrLog, logs);
            } catch (IOException e) {
                err.println("nbench run: cannot write --hdr-log " + hdrLog + ": " + AtomicFiles.describe(e));
                return ExitCode.COULD_NOT_RUN;
            }
        }
        return ExitCode.OK;
    }

    /**
     * The comparison of two servers or more, one block per server against the first, fitted to the terminal
     * (120 columns at most, as the rest of the text output).
     */
    private static void compare(List<ResultFile> results, List<String> compared, PrintWriter out) {
        if (results.size() >= 2) {
            out.println("=== comparison of the servers (A = " + compared.get(0) + ") ===");
            CompareBlocks.print(out, results, Comparison.compare(results), width());
        } else if (results.size() == 1) {
            out.println("One server measured: nothing to compare.");
        }
    }

    /**
     * The terminal's width on a terminal (what stty says, else $COLUMNS), $COLUMNS in a pipe or a file when set,
     * else 120; never more than {@link Tty#TEXT_COLUMNS}.
     */
    static int width() {
        if (Tty.stdout()) {
            return Math.min(Tty.TEXT_COLUMNS, Tty.stderrWidth());
        }
        try {
            int columns = Integer.parseInt(System.getenv().getOrDefault("COLUMNS", "").trim());
            return columns > 0 ? Math.min(Tty.TEXT_COLUMNS, columns) : Tty.TEXT_COLUMNS;
        } catch (NumberFormatException e) {
            return Tty.TEXT_COLUMNS;
        }
    }

    /**
     * One server's documents as one result for the comparison: with {@code --forks} every fork's measured
     * iterations, like the client's FORKS SUMMARY. Named by the kept file, or by the server when none is kept.
     */
    private static ResultFile joined(Transport server, List<ResultFile> documents, Path keptLast) {
        Path name = Path.of("server " + server.name() + (documents.size() > 1 ? " (" + documents.size() + " forks)" : "")
                + (documents.size() == 1 && keptLast != null ? ", " + keptLast : ""));
        Map<String, ResultFile.CombinationData> byName = new LinkedHashMap<>();
        for (ResultFile f : documents) {
            for (ResultFile.CombinationData c : clientNamed(f.combinations())) {
                ResultFile.CombinationData sum = byName.get(c.name());
                List<ResultFile.IterationData> its = new ArrayList<>(sum == null ? List.of() : sum.iterations());
                its.addAll(c.iterations());
                byName.put(c.name(), new ResultFile.CombinationData(c.name(), c.keys(), its));
            }
        }
        return new ResultFile(name, List.copyOf(byName.values()));
    }

    /**
     * The combinations as run shows them: the client's transport, which the documents call {@code impl}, is
     * named {@code client} (each column of the table is a server; every row would otherwise read the client's).
     */
    private static List<ResultFile.CombinationData> clientNamed(List<ResultFile.CombinationData> combinations) {
        List<ResultFile.CombinationData> renamed = new ArrayList<>();
        for (ResultFile.CombinationData c : combinations) {
            Map<String, String> keys = new LinkedHashMap<>();
            c.keys().forEach((k, v) -> keys.put(k.equals("impl") ? "client" : k, v));
            String name = c.name().replaceAll("(^|,)impl=", "$1client=");
            renamed.add(new ResultFile.CombinationData(name, keys, c.iterations()));
        }
        return renamed;
    }
}
