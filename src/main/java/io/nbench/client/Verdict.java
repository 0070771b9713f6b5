package io.nbench.client;

import io.nbench.load.RunResult;
import io.nbench.report.CombinationResult;
import io.nbench.report.Status;
import io.nbench.report.SweepResult;
import io.nbench.report.threshold.Threshold;
import io.nbench.stats.IterationResult;
import io.nbench.transport.ErrorKind;
import io.nbench.transport.TlsSession;
import io.nbench.units.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The client's verdict policy: a combination's status, reasons and exit code from what the engine measured,
 * {@code --max-errors} and {@code --threshold}; a sweep's from its combinations'. Exit codes combine by
 * {@link ExitCode#first}, the one place their order is written.
 */
public final class Verdict {

    private final MaxErrors limit;
    private final List<Threshold> thresholds;
    /** Whether an open-loop iteration off its target rate by more than 1 % makes the combination FAIL. */
    private final boolean ratePerIteration;

    public Verdict(MaxErrors limit, List<Threshold> thresholds) {
        this(limit, thresholds, true);
    }

    private Verdict(MaxErrors limit, List<Threshold> thresholds, boolean ratePerIteration) {
        this.limit = limit;
        this.thresholds = List.copyOf(thresholds);
        this.ratePerIteration = ratePerIteration;
    }

    /**
     * The same verdict but for the open loop's per-iteration rate rule: a capacity search judges each step's
     * achieved rate over the whole step instead (a stall that pushes a few sends over an iteration's end must not
     * fail a short step whose rate held).
     */
    public Verdict rateJudgedElsewhere() {
        return new Verdict(limit, thresholds, false);
    }

    public MaxErrors limit() {
        return limit;
    }

    /**
     * One combination: INTERRUPTED, ABORTED, else NO_DATA when the measured iterations (the warmup never counts)
     * completed no message, HTTP: got no response at all, whatever its status (exit 5:
     * nothing to judge, and every threshold is left unjudged, so not held), else FAIL for errors over the limit, a
     * missed rate or responses outstanding; a breached threshold makes any of them FAIL too (exit 3 unless an
     * earlier code applies).
     */
    public CombinationResult judge(ClientPlan.Step step, RunResult result, Map<String, String> effectiveConfig) {
        return judge(step, result, effectiveConfig, null);
    }

    /** {@link #judge(ClientPlan.Step, RunResult, Map)} of a run whose connections negotiated {@code tls} (or null). */
    public CombinationResult judge(ClientPlan.Step step, RunResult result, Map<String, String> effectiveConfig,
                                   TlsSession tls) {
        boolean nothing = !result.interrupted() && !result.aborted() && measuredMessages(result) == 0;
        List<Threshold.Outcome> judged = thresholds.stream()
                .map(th -> nothing ? th.notJudged("nothing measured") : th.judge(result)).toList();
        List<String> reasons = new ArrayList<>();
        Status status;
        int code;
        if (result.interrupted()) {
            status = Status.INTERRUPTED;
            code = ExitCode.INTERRUPTED;
            reasons.add("interrupted");
        } else if (result.aborted()) {
            status = Status.ABORTED;
            code = ExitCode.COULD_NOT_RUN;
            reasons.add(result.abortReason());
        } else {
            status = Status.PASS;
            code = ExitCode.OK;
            if (nothing) {
                reasons.add(nothingMeasured(result));
            }
            long errors = result.errors().total();
            long messages = 0;
            for (IterationResult it : result.iterations()) {
                messages += it.messages();
            }
            // A status error is a response, timed and counted in messages already: one attempt, not two.
            long attempts = messages + errors - result.errors().get(ErrorKind.STATUS);
            if (limit.exceeded(errors, attempts)) {
                reasons.add(limit.failure(errors, attempts));
            }
            long missed = ratePerIteration ? result.summary().rateMissedIterations() : 0;
            if (missed > 0) {
                reasons.add("target rate missed by more than 1% in " + result.summary().rateMissedText());
            }
            long outstanding = result.errors().get(ErrorKind.TIMEOUT);
            if (result.spec().openLoop() && outstanding > 0) {
                reasons.add(outstanding + " responses outstanding past --timeout");
            }
            if (nothing) {
                status = Status.NO_DATA;
                code = ExitCode.NOTHING_MEASURED;
            } else if (!reasons.isEmpty()) {
                status = Status.FAIL;
                code = ExitCode.FAILED;
            }
        }
        for (Threshold.Outcome o : judged) {
            if (!o.judged()) {
                reasons.add("threshold not judged: " + o.describe());
                code = ExitCode.first(code, ExitCode.THRESHOLD);
            } else if (!o.passed()) {
                reasons.add("threshold breached: " + o.describe());
                status = status.worse(Status.FAIL);
                code = ExitCode.first(code, ExitCode.THRESHOLD);
            }
        }
        return new CombinationResult(step.combination(), step.transport().transport().name(),
                step.transport().options().asText(), effectiveConfig, result, judged, status, reasons, code, tls);
    }

    /** Messages completed in the measured (not warmup) iterations. */
    private static long measuredMessages(RunResult result) {
        long messages = 0;
        for (IterationResult it : result.iterations()) {
            if (!it.warmup()) {
                messages += it.messages();
            }
        }
        return messages;
    }

    /**
     * Why a combination measured nothing, and what to change: the first reason of a NO_DATA combination. Time-based
     * iterations end on time, so what completes nothing in them is a server slower than an iteration (or
     * silent: then the errors say so too); count-based ones wait for every message, so each one failed.
     */
    private static String nothingMeasured(RunResult result) {
        int n = result.spec().iterations();
        long errors = result.errors().total();
        String failed = errors > 0 ? " (" + errors + " errors)" : "";
        if (result.spec().timeBased()) {
            return "nothing measured: no message completed within the " + n + " measured iteration(s) of "
                    + Durations.format(Duration.ofNanos(result.spec().iterationNanos())) + failed + ": the server "
                    + "answers slower than that; use a longer --iteration-time (or count-based --msgs)";
        }
        return "nothing measured: no message completed in the " + n + " measured iteration(s)" + failed
                + (errors > 0 ? ": fix what the errors name" : "");
    }

    /**
     * The whole run: the worst combination; {@code error} (could not go on) makes it ABORTED, exit 1;
     * {@code interrupted} (stopped before every combination ran) INTERRUPTED, exit 130, so a sweep cut between
     * two combinations does not pass on the ones that ran.
     */
    public static SweepResult sweep(String target, List<String> keys, List<CombinationResult> done, String error,
                                    boolean interrupted) {
        Status status = Status.PASS;
        int code = ExitCode.OK;
        for (CombinationResult c : done) {
            status = status.worse(c.status());
            code = ExitCode.first(code, c.exitCode());
        }
        if (interrupted) {
            status = status.worse(Status.INTERRUPTED);
            code = ExitCode.first(code, ExitCode.INTERRUPTED);
        }
        if (error != null) {
            status = status.worse(Status.ABORTED);
            code = ExitCode.first(code, ExitCode.COULD_NOT_RUN);
        }
        return new SweepResult(target, keys, done, error, status, code);
    }
}
