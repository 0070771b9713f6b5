package io.nbench.capacity;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.OptionalDouble;
import java.util.function.LongSupplier;

/**
 * The search for the highest open-loop rate that meets an objective, as a state machine that measures nothing
 * itself: {@link #next} says which rate to measure, {@link #record} takes what was measured, so a driver runs
 * real steps and a test a model of a server. Starting from a first guess (a closed-loop probe's rate) it
 * brackets the capacity with growing steps (x1.25, x1.5, x2, x3, x5 ... up while steps pass, down while they
 * fail), then bisects the bracket until it is no wider than the resolution. A failing step is measured again, up
 * to three runs, and a passing step near the boundary (a figure close to its limit) once more (see {@link #decide}),
 * so one stall of a busy machine does not move the bracket. Only a failure for a cause of the server's ({@link
 * StepCause#boundsTheServer}) bounds the capacity from above: a rate whose runs all failed for the client's or the
 * machine's causes stops the search going higher (a client limit) but leaves the server's capacity open, so a search
 * that reaches no server failure ends {@link Capacity.Outcome#CLIENT_LIMITED}. Once the bracket is as narrow as
 * asked, its passing and failing rates are each measured once more, interleaved (the passing one again until it
 * decides, as any rate): a pass that no longer passes, for the server's cause, ends the search
 * {@link Capacity.Outcome#UNSTABLE}: the server changed under the search; a pass whose every run fails again for
 * the machine's or the client's causes ends it unstable too (the answer could not be confirmed), never found.
 */
public final class RateSearch {

    /** Runs at one rate at most before it is decided failed. */
    public static final int RUNS = 3;
    /** The lowest rate any search tries, messages/s. */
    public static final double MIN_RATE = 1;

    private final String objective;
    private final double resolution;
    private final double firstGuess;
    private final double lowest;
    private final LongSupplier nanoClock;
    private final long maxNanos;
    private final long startNanos;
    private final List<Capacity.Step> steps = new ArrayList<>();
    /** The runs at {@link #current} not yet decided (a failing or near-boundary step and its repetitions). */
    private final List<StepResult> atCurrent = new ArrayList<>();
    private double current;
    private double passed = Double.NaN;
    private double failed = Double.NaN;
    private double clientLimit = Double.NaN;
    /** The outcome the bracket reached, while its ends are measured again; null before. */
    private Capacity.Outcome ending;
    /** The rates still to measure again, in order: the pass, the failing end, the pass again until decided. */
    private final Deque<Double> confirming = new ArrayDeque<>();
    /** The runs of the passing rate since the bracket closed. */
    private final List<StepResult> passAgain = new ArrayList<>();
    private boolean unstable;
    /** Every rate decided passed during the search, for a pass that fails when measured again to fall back on. */
    private final List<Double> passes = new ArrayList<>();
    /** Whether the answer already fell back once to a lower pass. */
    private boolean fellBack;
    /** How many bracketing steps were taken: each goes further than the last. */
    private int outward;
    private long stepStartNanos;
    private long lastStepNanos;
    private Capacity.Outcome outcome;

    /**
     * @param objective  the objectives as the user wrote them, for the result
     * @param resolution the bracket's relative width to reach, e.g. 0.02 for 2 %
     * @param firstGuess where to start, messages/s (a closed-loop probe's rate)
     * @param lowest     the lowest rate to try, messages/s (at least {@link #MIN_RATE}): below it a step is too
     *                   sparse to judge, and the search ends with no rate passing
     * @param maxTime    no step starts that would end (by the last step's duration) after this; null: no limit
     * @param nanoClock  a monotonic clock in nanoseconds ({@code System::nanoTime}; a test's own)
     */
    public RateSearch(String objective, double resolution, double firstGuess, double lowest, Duration maxTime,
                      LongSupplier nanoClock) {
        if (!(resolution > 0)) {
            throw new IllegalArgumentException("the resolution must be above 0, not " + resolution);
        }
        if (!(firstGuess >= MIN_RATE)) {
            throw new IllegalArgumentException("the first guess must be at least " + MIN_RATE + " messages/s, not "
                    + firstGuess);
        }
        this.objective = objective;
        this.resolution = resolution;
        this.firstGuess = firstGuess;
        this.lowest = Math.max(MIN_RATE, lowest);
        this.current = roundRate(Math.max(firstGuess, this.lowest));
        this.nanoClock = nanoClock;
        this.maxNanos = maxTime == null ? Long.MAX_VALUE : maxTime.toNanos();
        this.startNanos = nanoClock.getAsLong();
    }

    /**
     * The rate to measure next, or empty when the search has ended (found, no rate passes, out of time, or
     * {@link #stop stopped}). Out of time: the step would end after the time limit by the last step's duration.
     */
    public OptionalDouble next() {
        if (outcome != null) {
            return OptionalDouble.empty();
        }
        long now = nanoClock.getAsLong();
        if (maxNanos != Long.MAX_VALUE && now - startNanos + lastStepNanos > maxNanos) {
            // Out of time: a closed bracket keeps its outcome, unconfirmed; an open one is stopped (its answer
            // still names a client limit it met).
            outcome = ending != null ? (unstable ? Capacity.Outcome.UNSTABLE : ending) : Capacity.Outcome.STOPPED;
            return OptionalDouble.empty();
        }
        stepStartNanos = now;
        return OptionalDouble.of(ending != null ? confirming.peek() : current);
    }

    /** Whether the rate {@link #next} returned measures the answer again after the bracket closed. */
    public boolean confirmingTheAnswer() {
        return ending != null && !confirming.isEmpty() && confirming.peek() == passed;
    }

    /** What the step at the rate {@link #next} gave measured. */
    public void record(StepResult result) {
        if (outcome != null) {
            throw new IllegalStateException("the search has ended: " + outcome);
        }
        long now = nanoClock.getAsLong();
        lastStepNanos = now - stepStartNanos;
        if (ending != null) {
            confirm(result, now - startNanos);
            return;
        }
        atCurrent.add(result);
        Boolean decision = decide(atCurrent);
        steps.add(new Capacity.Step(result, decision, now - startNanos, false));
        if (decision == null) {
            return; // measured again at the same rate
        }
        boolean server = atCurrent.stream().anyMatch(r -> r.cause().boundsTheServer());
        atCurrent.clear();
        if (decision) {
            passed = current;
            passes.add(current);
            if (clientLimit <= passed) {
                clientLimit = Double.NaN; // the client sent it after all: no longer its limit
            }
        } else if (server) {
            failed = current;
        } else {
            clientLimit = current; // the client or the machine failed it: the server's capacity stays open above
        }
        double upper = upper();
        if (Double.isNaN(upper)) {
            current = roundRate(current * growth());
        } else if (Double.isNaN(passed)) {
            double lower = roundRate(current / growth());
            if (current <= lowest) {
                outcome = Capacity.Outcome.NONE_PASSED;
            }
            current = Math.max(lower, lowest); // the lowest rate is tried once before the search gives up
        } else if ((upper - passed) / passed <= resolution) {
            close();
        } else {
            double mid = roundRate((passed + upper) / 2);
            if (mid <= passed || mid >= upper) {
                close(); // no whole rate left between the two
            } else {
                current = mid;
            }
        }
    }

    /** The lower of the failing rate and the client's limit: the search goes no higher; NaN when neither is known. */
    private double upper() {
        if (Double.isNaN(failed)) {
            return clientLimit;
        }
        return Double.isNaN(clientLimit) ? failed : Math.min(failed, clientLimit);
    }

    /** Whether the bracket's upper end is the client's limit, not a server failure. */
    private boolean clientBinds() {
        return !Double.isNaN(clientLimit) && (Double.isNaN(failed) || clientLimit < failed);
    }

    /** The bracket is narrow enough: its ends are measured again, interleaved, before the search ends. */
    private void close() {
        ending = clientBinds() ? Capacity.Outcome.CLIENT_LIMITED : Capacity.Outcome.FOUND;
        confirming.add(passed);
        double upper = upper();
        if (!Double.isNaN(upper)) {
            confirming.add(upper);
        }
    }

    /**
     * One run of a bracket's end measured again; the passing rate again until it decides, as at any rate. A pass
     * that now fails for the server is, once, taken for the noise of a rate at the very edge (a pass by 0.1 % of
     * the answered rate, a failure by 0.5 %): the answer falls back to the next lower rate that passed, which is
     * measured again in turn. If that fails too, or there is none, the server changed: unstable. A pass that
     * fails again with no run failing for the server was not confirmed (the machine was disturbed throughout):
     * unstable too, with no fall-back (a lower rate would be measured on the same disturbed machine).
     */
    private void confirm(StepResult result, long atNanos) {
        double rate = confirming.remove();
        Boolean decision = result.passed();
        if (rate == passed) {
            passAgain.add(result);
            decision = decide(passAgain);
            if (decision == null) {
                confirming.add(passed);
            }
        }
        steps.add(new Capacity.Step(result, decision, atNanos, true));
        if (rate == passed && Boolean.FALSE.equals(decision)
                && passAgain.stream().noneMatch(r -> r.cause().boundsTheServer())) {
            // Every run of the answer failed again, none for the server: the machine (or the client) was
            // disturbed for the whole confirmation. The answer stands unconfirmed, so no figure is given.
            unstable = true;
            confirming.clear();
        } else if (rate == passed && Boolean.FALSE.equals(decision)) {
            double lower = passes.stream().filter(p -> p < passed).mapToDouble(Double::doubleValue).max().orElse(-1);
            if (fellBack || lower < 0) {
                unstable = true;
                confirming.clear();
            } else {
                fellBack = true;
                failed = passed;
                passed = lower;
                confirming.clear();
                passAgain.clear();
                close();
                return;
            }
        }
        if (confirming.isEmpty()) {
            outcome = unstable ? Capacity.Outcome.UNSTABLE : ending;
        }
    }

    /** Ends the search where it is (SIGINT, a step that could not run); a search already ended keeps its outcome. */
    public void stop(Capacity.Outcome why) {
        if (outcome == null) {
            outcome = why;
        }
    }

    /** Whether the search has ended. */
    public boolean ended() {
        return outcome != null;
    }

    /** The search so far; a search not ended reads as interrupted. */
    public Capacity result() {
        Capacity.Outcome o = outcome != null ? outcome : Capacity.Outcome.INTERRUPTED;
        return new Capacity(objective, resolution, firstGuess, o, passed, failed, clientBinds() ? clientLimit
                : Double.NaN, steps);
    }

    /**
     * The verdict at one rate. Noise on a loaded machine is one-sided: a scheduling stall adds latency and delays
     * answers, it never makes a server that falls behind look as if it kept up (a queue that grows over a step is
     * not undone by luck). So a failing run is measured again, up to {@link #RUNS} runs at one rate, and the rate
     * fails only when none of them passes; a failure far below the capacity, which one stall can cause, then no
     * longer ends the bracket there. A pass decides at once, unless a figure was near its limit (where ordinary
     * run-to-run spread, not only stalls, decides): then a second pass is needed. Null: measure again.
     */
    static Boolean decide(List<StepResult> runs) {
        int pass = 0;
        boolean clearPass = false;
        for (StepResult r : runs) {
            if (r.passed()) {
                pass++;
                clearPass |= !r.nearBoundary();
            }
        }
        if (clearPass || pass >= 2) {
            return true;
        }
        return runs.size() >= RUNS ? Boolean.FALSE : null;
    }

    /** x1.25, x1.5, x2, x3, x5, x9 ...: each bracketing step further than the last, so a bad guess costs few steps. */
    private double growth() {
        double g = 1 + 0.25 * Math.pow(2, Math.min(outward, 20));
        outward++;
        return g;
    }

    /** Whole messages per second above 100/s, so the rates printed are the rates run. */
    private static double roundRate(double rate) {
        return rate >= 100 ? Math.rint(rate) : rate;
    }
}
