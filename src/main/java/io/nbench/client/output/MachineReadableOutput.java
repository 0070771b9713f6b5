package io.nbench.client.output;

import io.nbench.report.CombinationResult;
import io.nbench.report.RunWarnings;
import io.nbench.report.Status;
import io.nbench.report.threshold.Threshold;
import java.io.PrintWriter;
import java.util.List;

/**
 * A {@code --format} that a program reads on stdout: the verdict's problems (a breached or unjudged threshold,
 * the FAIL or NO_DATA reasons) go to stderr, where a person running the pipe sees them.
 */
abstract class MachineReadableOutput implements Output {

    protected final OutputContext context;

    MachineReadableOutput(OutputContext context) {
        this.context = context;
    }

    @Override
    public void summary(CombinationResult r) {
        if (context.search()) {
            return; // a search's failing steps are its measure, each on the line of its step (on stderr here)
        }
        PrintWriter err = context.err();
        String where = " [" + r.combination().name() + "]";
        for (Threshold.Outcome o : r.thresholds()) {
            if (!o.judged()) {
                err.println("nbench client: threshold not judged" + where + ": " + o.describe());
            } else if (!o.passed()) {
                err.println("nbench client: threshold breached" + where + ": " + o.describe());
            }
        }
        List<String> failures = r.reasons().stream().filter(x -> !x.startsWith("threshold ")).toList();
        if ((r.status() == Status.FAIL || r.status() == Status.NO_DATA) && !failures.isEmpty()) {
            err.println("nbench client: " + r.status() + where + ": " + String.join("; ", failures));
        }
        // stdout is data here: the warnings the text summary prints go to stderr, one line each after the
        // verdict's, where a person running the pipe sees them (the document and the CSV keep them too).
        for (String w : RunWarnings.of(r.run().summary(), r.run().spec().pacing())) {
            err.println("nbench client: warning" + where + ": " + w);
        }
    }
}
