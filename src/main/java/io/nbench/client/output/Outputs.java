package io.nbench.client.output;

import io.nbench.client.ExitCode;
import io.nbench.load.CompositeListener;
import io.nbench.load.RunListener;
import io.nbench.report.CombinationResult;
import io.nbench.report.Status;
import io.nbench.report.SweepResult;
import io.nbench.report.json.IntervalDoc;
import io.nbench.report.json.NdjsonStream;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * The outputs of one run, opened together and called in order. Files that can be checked before a long run
 * are checked first; the figures are printed before any file is written, so a full disk loses the file, never
 * the figures on screen; the final words on stdout come after the files, so they never say PASS when one could
 * not be written.
 */
public final class Outputs implements AutoCloseable {

    private final OutputContext context;
    private final List<Output> outputs;
    private boolean finished;

    private Outputs(OutputContext context, List<Output> outputs) {
        this.context = context;
        this.outputs = outputs;
    }

    /**
     * Opens every output the settings turn on.
     *
     * @throws CannotWrite a file cannot be written (exit 1); nothing is left behind
     * @throws IllegalArgumentException contradictory settings (a usage error); nothing is left behind
     */
    public static Outputs open(OutputContext context) throws CannotWrite {
        List<Output> opened = new ArrayList<>();
        try {
            for (Output.Factory f : OutputRegistry.enabled(context.settings())) {
                Output o = f.open(context);
                if (o != null) {
                    opened.add(o);
                }
            }
        } catch (CannotWrite | RuntimeException e) {
            opened.forEach(Output::abandon);
            throw e;
        }
        return new Outputs(context, opened);
    }

    /** A combination starts: the headers; returns the listener of its iterations and intervals. */
    public RunListener start(CombinationStart start) {
        List<RunListener> listeners = new ArrayList<>();
        for (Output o : outputs) {
            listeners.add(o.start(start));
        }
        // Every second's figures go to the result document (its combinations[].intervals), for the report's
        // charts over time, and to each output: one CPU snapshot per second for all of them.
        List<IntervalDoc> seconds = context.record().intervalsOf(start.combination().name());
        listeners.add(NdjsonStream.intervals(start.combination(), figures -> {
            seconds.add(figures);
            outputs.forEach(o -> o.interval(figures));
        }));
        return new CompositeListener(listeners);
    }

    /** A combination was judged. */
    public void summary(CombinationResult r) {
        outputs.forEach(o -> o.summary(r));
        if (r.status() == Status.ABORTED) {
            context.err().println("nbench client: run aborted: " + r.run().abortReason());
        }
        context.err().flush();
    }

    /**
     * After the last combination: the result files, each one that could not be written on stderr, then the
     * last words on stdout. Returns the result with those write errors folded in (ABORTED, exit 1).
     */
    public SweepResult finish(SweepResult result) {
        finished = true;
        PrintWriter err = context.err();
        List<String> writeErrors = new ArrayList<>();
        outputs.forEach(o -> o.writeFiles(result, writeErrors));
        SweepResult last = result;
        for (String e : writeErrors) {
            err.println("nbench client: " + e);
            last = last.withError(result.error() != null ? result.error() : e,
                    ExitCode.first(last.exitCode(), ExitCode.COULD_NOT_RUN));
        }
        err.flush();
        for (Output o : outputs) {
            o.finish(last, List.copyOf(writeErrors));
        }
        context.out().flush();
        return last;
    }

    /** Drops what {@link #finish} did not complete (the run ended another way). */
    @Override
    public void close() {
        if (!finished) {
            outputs.forEach(Output::abandon);
        }
    }
}
