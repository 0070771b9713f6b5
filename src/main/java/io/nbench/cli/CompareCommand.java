package io.nbench.cli;

import io.nbench.report.compare.CompareTable;
import io.nbench.report.compare.Comparison;
import io.nbench.report.compare.ResultFile;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "compare", mixinStandardHelpOptions = true,
        description = "Result files (nbench client --out) side by side: per combination and metric (throughput, "
                + "p50, p90, p99, p99.9, max) the per-iteration means, the ratio to the first file with its 99.9%% "
                + "confidence interval (Welch's t on the logarithms of the measured iterations' values: always "
                + "positive) and a verdict: faster, slower, no significant difference, or too few iterations to "
                + "decide (fewer than 5 on a side).",
        footer = {"", "Examples:",
            "  nbench compare baseline.json candidate.json",
            "  nbench compare netty.json mina.json nio.json",
            "", "Combinations are matched by their keys (impl, size, threads, window, swept -O keys); two files of "
                + "one combination each are compared whatever their keys.",
            "Exit codes: 0 compared, 1 a file is missing, unreadable or not nbench-result/1, 2 usage error."})
final class CompareCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(arity = "2..*", paramLabel = "FILE", description = "Result documents; the first is the baseline.")
    List<Path> files;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<ResultFile> results = new ArrayList<>();
        for (Path f : files) {
            try {
                results.add(ResultFile.read(f));
            } catch (ResultFile.Unreadable e) {
                err.println("nbench compare: " + e.getMessage());
                return ExitCode.COULD_NOT_RUN;
            }
        }
        CompareTable.print(out, results, Comparison.compare(results));
        return ExitCode.OK;
    }
}
