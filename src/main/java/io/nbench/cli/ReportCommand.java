package io.nbench.cli;

import io.nbench.client.ExitCode;
import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.report.AtomicFiles;
import io.nbench.report.Environment;
import io.nbench.report.compare.CompareFormats;
import io.nbench.report.compare.Comparison;
import io.nbench.report.compare.ResultFile;
import io.nbench.report.html.HtmlReport;
import io.nbench.report.json.ResultDoc;
import io.nbench.report.json.ResultDocWriter;
import io.nbench.report.json.ResultDocument;
import io.nbench.report.merge.ResultMerge;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Result files (nbench client --out, a run --results-dir) as one self-contained HTML page that "
                + "opens offline: per combination the percentile spectrum (corrected and uncorrected in the open "
                + "loop), throughput per iteration, the summary and the environment; across files the comparison "
                + "nbench compare prints, as ratio bars and overlaid spectra. With --merge, documents of one "
                + "configuration from several client hosts become one: histograms added (lossless), counts summed, "
                + "each host's resources side by side.",
        footer = {"", "Examples:",
            "  nbench report results.json --html report.html",
            "  nbench report results/ --html report.html   # each *.json of a directory",
            "  nbench report baseline.json candidate.json --html diff.html",
            "  nbench report host1.json host2.json host3.json --merge --out merged.json",
            "  nbench report host*.json --merge --html merged.html",
            "", "Exit codes: 0 written, 1 a file is missing, unreadable, larger than --max-input or not a valid "
                + "nbench-result/1 document, a merged count would overflow, or a file cannot be written, 2 usage "
                + "error or documents of different configurations given to --merge."})
final class ReportCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "FILE|DIR",
            description = "Result documents, or directories whose *.json files are read in name order.")
    List<Path> inputs = new ArrayList<>();

    @Option(names = "--html", paramLabel = "FILE",
            description = "Write the page here (atomically; an existing file keeps its mode; default: no page).")
    Path html;

    @Option(names = "--merge", description = "Merge the documents (one configuration, one per client host) into one "
            + "nbench-result/1 document: to --out, or stdout without it; with --html the page shows the merged one "
            + "(default: off).")
    boolean merge;

    @Mixin
    InputLimitOption input = new InputLimitOption();

    @Option(names = "--out", paramLabel = "FILE", description = "With --merge: write the merged document here "
            + "(atomically; default: stdout).")
    Path out;

    @Override
    public Integer call() {
        if (html == null && !merge) {
            throw new ParameterException(spec.commandLine(), "nothing to do: give --html FILE, --merge, or both");
        }
        if (this.out != null && !merge) {
            throw new ParameterException(spec.commandLine(), "--out writes the merged document: add --merge, or use "
                    + "--html for the page");
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<Path> files = new ArrayList<>();
        for (Path p : inputs) {
            if (Files.isDirectory(p)) {
                try (Stream<Path> list = Files.list(p)) {
                    List<Path> json = list.filter(f -> f.getFileName().toString().endsWith(".json")).sorted().toList();
                    if (json.isEmpty()) {
                        err.println("nbench report: " + p + " holds no *.json result file");
                        return ExitCode.COULD_NOT_RUN;
                    }
                    files.addAll(json);
                } catch (IOException e) {
                    err.println("nbench report: cannot list " + p + ": " + AtomicFiles.describe(e));
                    return ExitCode.COULD_NOT_RUN;
                }
            } else {
                files.add(p);
            }
        }
        List<ResultFile> results = new ArrayList<>();
        List<HtmlReport.Source> sources = new ArrayList<>();
        for (Path f : files) {
            try {
                ResultDoc doc = ResultFile.document(f, input.maxInput); // bounded, valid against the schema
                results.add(ResultFile.of(f, doc));
                ResultFile.checkOtherHistograms(f, doc); // the merge and the page decode them too
                sources.add(new HtmlReport.Source(f.toString(), doc, true));
            } catch (ResultFile.Unreadable e) {
                err.println("nbench report: " + e.getMessage());
                return ExitCode.COULD_NOT_RUN;
            }
        }
        if (merge) {
            List<ResultMerge.Input> inputs = sources.stream().map(s -> new ResultMerge.Input(s.name(), s.document())).toList();
            ResultDoc merged;
            try {
                merged = ResultMerge.merge(inputs);
            } catch (ResultMerge.Refused e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            } catch (ResultMerge.Overflow e) {
                err.println("nbench report: " + e.getMessage());
                return ExitCode.COULD_NOT_RUN;
            } catch (OutOfMemoryError e) { // the merge's histograms, all documents' together
                err.println("nbench report: --merge " + ResultFile.heapTooSmall());
                return ExitCode.COULD_NOT_RUN;
            }
            for (String skew : ResultMerge.clockSkew(inputs)) {
                err.println("nbench report: warning: " + skew);
            }
            String text = ResultDocument.pretty(ResultDocWriter.document(merged));
            if (this.out == null) {
                out.println(text);
            } else {
                try {
                    AtomicFiles.write(this.out, (text + "\n").getBytes(StandardCharsets.UTF_8));
                } catch (IOException e) {
                    err.println("nbench report: cannot write --out " + this.out + ": " + AtomicFiles.describe(e));
                    return ExitCode.COULD_NOT_RUN;
                }
                out.println("Merged: " + this.out + " (" + sources.size() + " documents, "
                        + merged.combinations().size() + " combination(s))");
            }
            if (html == null) {
                out.flush();
                return ExitCode.OK;
            }
            sources = List.of(new HtmlReport.Source(this.out != null ? this.out.toString() : "merged", merged, false));
            results = List.of();
        }
        JsonNode comparison = results.size() > 1
                ? CompareFormats.document(results, Comparison.compare(results), List.of(), ExitCode.OK) : null;
        try {
            HtmlReport.write(html, sources, comparison, Environment.version());
        } catch (IOException e) {
            err.println("nbench report: cannot write --html " + html + ": " + AtomicFiles.describe(e));
            return ExitCode.COULD_NOT_RUN;
        } catch (OutOfMemoryError e) { // the page's histograms, all documents' together
            err.println("nbench report: --html " + ResultFile.heapTooSmall());
            return ExitCode.COULD_NOT_RUN;
        }
        int combinations = sources.stream().mapToInt(s -> s.document().combinations().size()).sum();
        if (!(merge && this.out == null)) { // stdout then holds the merged document alone
            out.println("Report: " + html + " (" + files.size() + " file(s), " + combinations + " combination(s))");
        }
        out.flush();
        return ExitCode.OK;
    }
}
