package io.nbench.client.output;

import io.nbench.load.RunListener;
import io.nbench.report.CapacityTable;
import io.nbench.report.CombinationResult;
import io.nbench.report.CurveTable;
import io.nbench.report.SweepResult;
import io.nbench.report.SweepTable;
import io.nbench.report.TextReport;
import io.nbench.report.Tty;
import io.nbench.report.threshold.Threshold;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code --format text}: a header per combination, a line per iteration, the summary block and the verdict.
 * A single run's {@code Result:} line waits for the result files (in {@link #finish}), so it never says PASS
 * when one could not be written.
 */
final class TextOutput implements Output {

    private final OutputContext context;
    private final PrintWriter out;
    /** Each iteration as lines of at most this many columns on a terminal; 0: one line each in a pipe or file. */
    private final int columns;
    private TextReport report;

    TextOutput(OutputContext context) {
        this.context = context;
        this.out = context.out();
        this.columns = !context.settings().quiet() && Tty.stdout() ? Tty.TEXT_COLUMNS : 0;
    }

    @Override
    public RunListener start(CombinationStart s) {
        report = new TextReport(out, s.load(), context.settings().quiet(), columns);
        if (context.search()) { // the search prints a line per step; the header once, for the target and transport
            if (s.number() == 1) {
                report.header(s.target(), s.transport(), s.config(), s.writtenEvent(), s.httpParser());
            }
            return RunListener.NONE;
        }
        if (context.sweep()) {
            out.println("Combination " + s.number() + "/" + context.combinations() + ": " + s.combination().name());
        }
        report.header(s.target(), s.transport(), s.config(), s.writtenEvent(), s.httpParser());
        report.tlsOnConnect(s.tls());
        return report;
    }

    @Override
    public void summary(CombinationResult r) {
        if (context.search()) {
            return;
        }
        report.summary(r.run());
        for (Threshold.Outcome o : r.thresholds()) {
            out.println("Threshold " + (!o.judged() ? "NOT JUDGED: " : o.passed() ? "passed: " : "BREACHED: ")
                    + o.describe());
        }
        if (context.sweep()) {
            out.println(resultLine(r, List.of())); // a single run's verdict waits for its files (finish)
        }
        out.flush();
    }

    @Override
    public void finish(SweepResult last, List<String> writeErrors) {
        if (context.sweep() && !last.combinations().isEmpty()) {
            if (last.curve() != null) { // a search's answer stays its last line
                CurveTable.print(out, last.curve());
            }
            if (last.capacity() != null) {
                CapacityTable.print(out, last);
            } else if (last.curve() == null) { // a rate sweep's table is its curve
                SweepTable.print(out, last);
            }
            out.println("Result: " + last.status() + (last.exitCode() == 0 ? ""
                    : " (exit code " + last.exitCode() + ")") + (writeErrors.isEmpty() ? ""
                    : ": " + String.join("; ", writeErrors)));
        } else if (last.combinations().size() == 1) {
            out.println(resultLine(last.combinations().get(0), writeErrors));
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
                case FAIL, NO_DATA -> why.addAll(r.reasons());
            }
            why.addAll(writeErrors);
            return "Result: ABORTED: " + String.join("; ", why);
        }
        return switch (r.status()) {
            case PASS -> "Result: PASS";
            case INTERRUPTED -> "Result: INTERRUPTED (partial results above)";
            case ABORTED -> "Result: ABORTED: " + r.run().abortReason();
            case FAIL -> "Result: FAIL: " + String.join("; ", r.reasons());
            case NO_DATA -> "Result: NO_DATA (exit code " + r.exitCode() + "): " + String.join("; ", r.reasons());
        };
    }
}
