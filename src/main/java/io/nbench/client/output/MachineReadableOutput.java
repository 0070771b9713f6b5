package io.nbench.client.output;

import io.nbench.report.CombinationResult;
import io.nbench.report.Status;
import io.nbench.report.threshold.Threshold;
import java.io.PrintWriter;
import java.util.List;

/**
 * A {@code --format} that a program reads on stdout: the verdict's problems (a breached threshold, the FAIL
 * reasons) go to stderr, where a person running the pipe sees them.
 */
abstract class MachineReadableOutput implements Output {

    protected final OutputContext context;

    MachineReadableOutput(OutputContext context) {
        this.context = context;
    }

    @Override
    public void summary(CombinationResult r) {
        PrintWriter err = context.err();
        String where = " [" + r.combination().name() + "]";
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
}
