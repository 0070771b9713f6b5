package io.nbench.client.capacity;

import io.nbench.capacity.Capacity;
import io.nbench.capacity.RateSearch;
import io.nbench.capacity.StepResult;
import io.nbench.client.ClientPlan;
import io.nbench.client.ClientPlanBuilder;
import io.nbench.client.CouldNotRun;
import io.nbench.client.ExitCode;
import io.nbench.client.InvalidClientPlan;
import io.nbench.client.StepSource;
import io.nbench.client.Verdict;
import io.nbench.report.CombinationResult;
import io.nbench.report.Status;
import io.nbench.report.SweepResult;
import io.nbench.report.threshold.Metric;
import io.nbench.report.threshold.Threshold;
import io.nbench.stats.IterationResult;
import io.nbench.stats.Percentiles;
import io.nbench.stats.Summary;
import io.nbench.sweep.Combination;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.HdrHistogram.Histogram;

/**
 * {@code --find-rate}: a capacity search run as a client sweep whose next rate is decided by the last result. The
 * first step is a short closed-loop probe (the steps' warmup and one measured iteration) whose throughput is the first
 * guess; each later step is a full open-loop measurement at the rate {@link RateSearch} asks for, judged by the
 * plan's verdict (the objectives as thresholds, {@code --max-errors}, the rate missed by more than 1 %). The
 * steps are combinations of the result like a sweep's, keyed by {@code rate} and {@code step}.
 */
public final class CapacitySearch implements StepSource {

    /** A judged figure within this fraction of its limit is near the boundary: a pass there is measured again. */
    public static final double NEAR = 0.10;
    /** How many times the closed-loop probe runs before the search gives up for want of a first guess. */
    static final int PROBES = 3;
    /** Messages in one iteration at the lowest rate tried: 1 % of them is one message. */
    public static final int MIN_MESSAGES = 100;

    private final ClientPlanBuilder plan;
    private final CapacitySettings settings;
    private final StepLines lines;
    private RateSearch search;
    private int steps;

    /**
     * @param plan     the client's plan: one combination, closed loop
     * @param settings the objectives, the resolution, the time limit, the timing of the steps
     * @param progress where the line of each step goes (stdout in text, else stderr)
     */
    public CapacitySearch(ClientPlanBuilder plan, CapacitySettings settings, PrintWriter progress) {
        this.plan = plan;
        this.settings = settings;
        this.lines = new StepLines(progress);
    }

    /** The result's combination keys: the plan's, then the rate and the step number. */
    public static List<String> keys(List<String> planKeys) {
        List<String> keys = new ArrayList<>(planKeys);
        if (!keys.contains("rate")) {
            keys.add("rate");
        }
        keys.add("step");
        return keys;
    }

    @Override
    public ClientPlan.Step next(List<CombinationResult> done) throws CouldNotRun {
        if (done.isEmpty()) {
            return step(null, false);
        }
        CombinationResult last = done.get(done.size() - 1);
        if (last.status() == Status.INTERRUPTED) {
            stop();
            return null;
        }
        if (search == null) { // the probe ran
            double guess = last.run().summary().throughput().mean();
            if (!(guess >= RateSearch.MIN_RATE) && done.size() < PROBES) {
                // A cold client or server on a busy machine can take longer than an iteration to answer at first.
                lines.probeAgain(done.size(), String.join("; ", last.reasons()));
                return step(null, false);
            }
            if (!(guess >= RateSearch.MIN_RATE)) {
                throw new CouldNotRun("the closed-loop probe measured no throughput ("
                        + String.join("; ", last.reasons()) + "): the search has no rate to start from");
            }
            search = new RateSearch(settings.objective(), settings.resolution(), guess, lowestRate(last),
                    settings.maxTime(), System::nanoTime);
            lines.probe(guess);
        } else {
            StepResult measured = measured(last);
            search.record(measured);
            lines.step(steps - 1, last, measured, search.result());
        }
        OptionalDouble rate = search.next();
        return rate.isPresent() ? step(rate.getAsDouble(), search.confirmingTheAnswer()) : null;
    }

    /**
     * Time-based iterations hold at least {@link #MIN_MESSAGES} messages at the lowest rate tried, so the
     * achieved rate can be judged to 1 %: below that a step is too sparse to say anything.
     */
    private static double lowestRate(CombinationResult probe) {
        long nanos = probe.spec().iterationNanos();
        return nanos > 0 ? MIN_MESSAGES * 1e9 / nanos : RateSearch.MIN_RATE;
    }

    /** The open-loop steps by the objectives; the probe without them, since it only gives the first guess. */
    @Override
    public Verdict verdict(ClientPlan.Step step, Verdict planned) {
        Verdict objectives = settings.verdict();
        return Capacity.PROBE.equals(step.combination().get("rate")) ? new Verdict(objectives.limit(), List.of()) : objectives;
    }

    private void stop() {
        if (search != null) {
            search.stop(Capacity.Outcome.INTERRUPTED);
        }
    }

    /**
     * The run's result: the search's answer decides the status and exit code (0 when some rate passed; 3 when
     * none did, the objective breached at every rate tried; {@link ExitCode#CLIENT_LIMITED} when the client, not
     * the server, limited it; {@link ExitCode#UNSTABLE} when the answer no longer passed at the end), unless the
     * run could not go on or was interrupted.
     */
    @Override
    public SweepResult conclude(SweepResult sweep) {
        stop(); // a search that did not end by itself was cut short
        Capacity capacity = search == null
                ? new Capacity(settings.objective(), settings.resolution(), Double.NaN, Capacity.Outcome.INTERRUPTED,
                        Double.NaN, Double.NaN, List.of())
                : search.result();
        Status status;
        int code;
        if (sweep.error() != null) {
            status = Status.ABORTED;
            code = ExitCode.COULD_NOT_RUN;
        } else if (sweep.status() == Status.INTERRUPTED || capacity.outcome() == Capacity.Outcome.INTERRUPTED) {
            status = Status.INTERRUPTED;
            code = ExitCode.INTERRUPTED;
        } else if (capacity.outcome() == Capacity.Outcome.UNSTABLE) {
            status = Status.FAIL;
            code = ExitCode.UNSTABLE;
        } else if (capacity.outcome() == Capacity.Outcome.CLIENT_LIMITED) {
            status = Status.PASS; // the rate passed; how far above it the server goes is not known
            code = ExitCode.CLIENT_LIMITED;
        } else if (capacity.found()) {
            status = Status.PASS;
            code = ExitCode.OK;
        } else {
            status = Status.FAIL;
            code = ExitCode.THRESHOLD;
        }
        return new SweepResult(sweep.target(), keys(sweep.keys()), sweep.combinations(), sweep.error(), status, code,
                capacity);
    }

    /**
     * The plan at one rate (null: the closed-loop probe), its combination named by rate and step; the answer
     * measured again at the end runs {@link CapacitySettings#confirmIterations} iterations.
     */
    private ClientPlan.Step step(Double rate, boolean confirmingTheAnswer) throws CouldNotRun {
        ClientPlan built;
        try {
            if (rate == null) {
                built = plan.rates(null).iterations(Math.max(1, settings.warmup()), 1).build();
            } else {
                int iterations = confirmingTheAnswer ? settings.confirmIterations() : settings.iterations();
                built = plan.rates(List.of(rate)).iterations(settings.warmup(), iterations).build();
            }
        } catch (InvalidClientPlan e) {
            throw new CouldNotRun(e.getMessage());
        }
        ClientPlan.Step s = built.steps().get(0);
        Map<String, String> keys = new LinkedHashMap<>(s.combination().keys());
        keys.putIfAbsent("rate", Capacity.PROBE);
        keys.put("step", Integer.toString(steps++));
        return new ClientPlan.Step(new Combination(keys), s.transport(), s.load());
    }

    /**
     * A step as the search reads it: the rates sent and answered (the measured iterations' mean throughput), whether
     * it passed its verdict, whether a figure was close, and what names a failure's cause: the messages that waited
     * on the in-flight cap, the send lag's p99, steal in any measured iteration, the latency p99 (which a
     * disturbance must explain to be the cause).
     */
    public static StepResult measured(CombinationResult r) {
        double achieved = Metric.named("rate-achieved").valueOf(r.run());
        boolean near = false;
        for (Threshold.Outcome o : r.thresholds()) {
            double limit = o.threshold().limit();
            if (o.judged() && limit != 0 && Math.abs(o.actual() - limit) / Math.abs(limit) < NEAR) {
                near = true;
            }
        }
        Summary summary = r.run().summary();
        double answered = summary.throughput().mean();
        long capWaits = 0;
        boolean steal = false;
        for (IterationResult it : summary.measured()) {
            capWaits += it.openLoop() == null ? 0 : it.openLoop().maxInflightHits();
            steal |= it.resources() != null && it.resources().disturbed();
        }
        Histogram lag = summary.mergedSendLag();
        double lagP99 = lag == null || lag.getTotalCount() == 0 ? Double.NaN : Percentiles.valueAt(lag, 99);
        Histogram merged = summary.merged();
        double latencyP99 = merged.getTotalCount() == 0 ? Double.NaN : Percentiles.valueAt(merged, 99);
        return new StepResult(r.spec().rate(), achieved, answered, r.status() == Status.PASS, near, capWaits, lagP99,
                steal, latencyP99);
    }
}
