package io.nbench.cli;

import io.nbench.client.ExitCode;
import io.nbench.report.compare.BaselineComparison;
import io.nbench.report.compare.BaselineSelector;
import io.nbench.report.compare.CapacityComparison;
import io.nbench.report.compare.CompareBlocks;
import io.nbench.report.compare.CompareFormats;
import io.nbench.report.compare.CompareTable;
import io.nbench.report.compare.Comparison;
import io.nbench.report.compare.Gate;
import io.nbench.report.compare.ResultFile;
import io.nbench.report.compare.Sides;
import io.nbench.report.json.ResultDoc;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "compare", mixinStandardHelpOptions = true,
        description = "Result files (nbench client --out) side by side: per combination and metric (throughput, "
                + "mean latency, p50, p90, p99, p99.9, max; the client's and the server's CPU and CPU per message "
                + "when the documents have them) the per-iteration means, the ratio to the first file with its 99.9%% "
                + "confidence interval (Welch's t on the logarithms of the measured iterations' values: always "
                + "positive) and a verdict: faster, slower, no significant difference, or too few iterations to "
                + "decide (fewer than 5 on a side).",
        footer = {"", "Examples:",
            "  nbench compare baseline.json candidate.json",
            "  nbench compare netty.json mina.json nio.json",
            "  nbench compare --fail-if-slower 5 --fail-if-higher p99:10 base.json new.json",
            "  nbench compare --format markdown base.json new.json >> \"$GITHUB_STEP_SUMMARY\"",
            "  nbench compare --baseline mina.stats=on --fail-if-slower 5 sweep.json",
            "", "Combinations are matched by their keys (impl, size, threads, window, swept -O keys); two files of "
                + "one combination each are compared whatever their keys.",
            "With --baseline and one sweep document, each combination that does not match the selector is compared "
                + "with the one that does and has the same value of every other key both have: with --baseline "
                + "mina.stats=on, each mode against the stats=on one of its own size (add size=1k to compare them all "
                + "with one size). A combination without such a baseline is named and, with a gate, not judged.",
            "A gate is breached only by a significant regression beyond its bound: the whole 99.9%% interval of the "
                + "ratio to the first file lies beyond it. A gate that cannot be judged (a combination of the first "
                + "file missing from another, a file that measured nothing, fewer than 5 measured iterations on a "
                + "side without a breach) does not pass: each is named on stderr and the exit code is 6, unless "
                + "--allow-unjudged.",
            "Exit codes: 0 compared (and every gate judged and held), 1 a file is missing, unreadable, larger than "
                + "--max-input or not a valid nbench-result/1 document, 2 usage error (also: a --baseline that matches "
                + "no combination, every one, or several for one combination; a document of one combination), 3 a "
                + "gate was breached, 6 a gate could not be judged."})
final class CompareCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "Result documents; the first is the baseline. "
            + "One sweep document with --baseline.")
    List<Path> files;

    @Option(names = "--baseline", paramLabel = "SELECTOR",
            description = "KEY=VALUE[,KEY=VALUE...] (mina.stats=on): compare the combinations of one sweep "
                    + "document, each with the combination that matches these keys (as the combinations' names have "
                    + "them: impl, size, threads, window, swept -O keys; a size may be written 1k) and has the same "
                    + "value of every other key. Default: none, the first file is the baseline.")
    String baseline;

    @Mixin
    InputLimitOption input = new InputLimitOption();

    /** How the comparison is printed. */
    enum Format { text, json, markdown }

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
            description = "text (default), json (schema nbench-compare/1) or markdown (a pull request comment or "
                    + "job summary).")
    Format format;

    @Option(names = "--fail-if-slower", paramLabel = "PCT",
            description = "Exit 3 if a file's throughput is significantly more than PCT%% below the first file's "
                    + "(the ratio's whole 99.9%% interval under 1 - PCT/100); default: no throughput gate.")
    String failIfSlower;

    @Option(names = "--fail-if-higher", paramLabel = "METRIC:PCT",
            description = "Exit 3 if a file's latency METRIC (mean, p50, p90, p99, p99.9, max) is significantly more than "
                    + "PCT%% above the first file's (the ratio's whole 99.9%% interval over 1 + PCT/100). Repeatable; "
                    + "default: no latency gate.")
    List<String> failIfHigher = new ArrayList<>();

    @Option(names = "--allow-unjudged",
            description = "Gates that cannot be judged (a missing combination, a file that measured nothing, too few "
                    + "iterations) are still named on stderr but do not fail: exit 0 (or 3 if another gate was "
                    + "breached) instead of 6 (default: off, they fail).")
    boolean allowUnjudged;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        BaselineSelector selector = selector();
        List<Gate> gates = gates();
        List<ResultFile> results = new ArrayList<>();
        List<CapacityComparison.Named> capacities = new ArrayList<>();
        for (Path f : files) {
            try {
                ResultDoc doc = ResultFile.document(f, input.maxInput);
                results.add(ResultFile.of(f, doc));
                capacities.add(new CapacityComparison.Named(f.toString(), doc.capacity()));
            } catch (ResultFile.Unreadable e) {
                err.println("nbench compare: " + e.getMessage());
                return ExitCode.COULD_NOT_RUN;
            }
        }
        Sides sides;
        List<Comparison.Block> blocks;
        List<Gate.Verdict> verdicts = new ArrayList<>();
        if (selector == null) {
            sides = new Sides.Files(results);
            blocks = Comparison.compare(results);
            gates.forEach(g -> verdicts.addAll(g.judge(blocks, results.size())));
        } else {
            BaselineComparison within = within(results.get(0), selector);
            sides = new Sides.Baselines(within);
            blocks = within.blocks();
            for (Gate g : gates) {
                verdicts.addAll(g.judge(blocks, 1));
                within.unpaired().forEach(c -> verdicts.add(g.withoutBaseline(c)));
            }
        }
        long unjudged = verdicts.stream().filter(v -> !v.judged()).count();
        int code = ExitCode.OK;
        if (verdicts.stream().anyMatch(Gate.Verdict::breached)) {
            code = ExitCode.THRESHOLD;
        }
        if (unjudged > 0 && !allowUnjudged) {
            code = ExitCode.first(code, ExitCode.UNJUDGED);
        }
        switch (format) {
            case json -> CompareFormats.json(out, sides, blocks, verdicts, code, capacities);
            case markdown -> CompareFormats.markdown(out, sides, blocks, verdicts, capacities);
            default -> {
                if (selector == null && results.size() < 3) {
                    CompareTable.print(out, results, blocks);
                } else {
                    // A block per baseline combination, one table per file or combination against it, as run's:
                    // a column pair per file grows the one table past any terminal from the third file on.
                    CompareBlocks.print(out, sides, blocks, RunResults.width());
                }
                if (CapacityComparison.any(capacities)) {
                    CapacityComparison.print(out, capacities);
                }
            }
        }
        for (Gate.Verdict v : verdicts) {
            if (v.breached()) {
                err.println("nbench compare: " + sides.breach(v));
            } else if (!v.judged()) {
                err.println("nbench compare: " + sides.notJudged(v));
            }
        }
        if (unjudged > 0 && !allowUnjudged) {
            err.println("nbench compare: " + unjudged + " gate check(s) could not be judged, so the gates did not "
                    + "pass (exit " + ExitCode.UNJUDGED + "): measure what the lines above name, or add "
                    + "--allow-unjudged to let them pass");
        }
        err.flush();
        return code;
    }

    /** --baseline's selector (null without it), checked against the number of files. */
    private BaselineSelector selector() {
        if (baseline == null) {
            if (files.size() < 2) {
                throw new ParameterException(spec.commandLine(), "one file: compare needs two files or more (the first "
                        + "is the baseline), or one sweep document and --baseline KEY=VALUE to compare its combinations");
            }
            return null;
        }
        if (files.size() > 1) {
            throw new ParameterException(spec.commandLine(), "--baseline picks the baseline among the combinations of "
                    + "one document; with " + files.size() + " files the first file is the baseline: give one file, "
                    + "or drop --baseline");
        }
        try {
            return BaselineSelector.parse(baseline);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    /** The document's combinations paired with their baselines; a selector that cannot pair them is a usage error. */
    private BaselineComparison within(ResultFile document, BaselineSelector selector) {
        try {
            return BaselineComparison.of(document, selector);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    private List<Gate> gates() {
        List<Gate> gates = new ArrayList<>();
        try {
            if (failIfSlower != null) {
                String pct = failIfSlower.strip().replace("%", "");
                double v;
                try {
                    v = Double.parseDouble(pct);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("--fail-if-slower " + failIfSlower + ": not a percentage "
                            + "(e.g. 5 or 5%)");
                }
                gates.add(Gate.slower(v));
            }
            for (String h : failIfHigher) {
                gates.add(Gate.higher(h));
            }
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        return gates;
    }
}
