package io.nbench.client;

import io.nbench.load.RunResult;
import io.nbench.report.CombinationResult;
import io.nbench.report.Status;
import io.nbench.report.SweepResult;
import io.nbench.report.threshold.Threshold;
import io.nbench.stats.IterationResult;
import io.nbench.transport.ErrorKind;
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
     * One combination: INTERRUPTED, ABORTED, else NO_DATA when the measured iterations completed no message (exit 5:
     * nothing to judge, and every threshold is left unjudged, so not held), else FAIL for errors over the limit, a
     * missed rate or responses outstanding; a breached threshold makes any of them FAIL too (exit 3 unless an
     * earlier code applies).
     */
    public CombinationResult judge(ClientPlan.Step step, RunResult result, Map<String, String> effectiveConfig) {
        return judge(step, result, effectiveConfig, null);
    }

    /** {@link #judge(ClientPlan.Step, RunResult, Map)} of a run whose connections negotiated {@code tls} (or null). */
    public CombinationResult judge(ClientPlan.Step step, RunResult result, Map<String, String> effectiveConfig,
                                   io.nbench.transport.TlsSession tls) {
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
            if (limit.exceeded(errors, messages + errors)) {
                reasons.add(limit.failure(errors, messages + errors));
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
        String statuses = everyStatusAnError(result);
        if (statuses != null) {
            return "nothing measured: every response in the " + n + " measured iteration(s) was an error status ("
                    + statuses + "; status errors, which have no latency: only a 2xx response is timed): check the "
                    + "URL and the server";
        }
        if (result.spec().timeBased()) {
            return "nothing measured: no message completed within the " + n + " measured iteration(s) of "
                    + Durations.format(Duration.ofNanos(result.spec().iterationNanos())) + failed + ": the server "
                    + "answers slower than that; use a longer --iteration-time (or count-based --msgs)";
        }
        return "nothing measured: no message completed in the " + n + " measured iteration(s)" + failed
                + (errors > 0 ? ": fix what the errors name" : "");
    }

    /**
     * HTTP: the measured iterations' responses by code ({@code 404 x10 503 x2}) when there were some and none was
     * a 2xx, else null. Their latency is not measured on purpose (an error page is other work than the answer
     * being benchmarked, often much faster), so such a run has nothing to judge, and the reason must say why.
     */
    private static String everyStatusAnError(RunResult result) {
        Map<Integer, Long> byCode = new java.util.TreeMap<>();
        for (IterationResult it : result.iterations()) {
            if (!it.warmup()) {
                it.errors().statuses().forEach((code, count) -> byCode.merge(code, count, Long::sum));
            }
        }
        if (byCode.isEmpty() || byCode.keySet().stream().anyMatch(code -> code >= 200 && code <= 299)) {
            return null;
        }
        java.util.StringJoiner codes = new java.util.StringJoiner(" ");
        byCode.forEach((code, count) -> codes.add(code + " x" + io.nbench.units.Units.count(count)));
        return codes.toString();
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
