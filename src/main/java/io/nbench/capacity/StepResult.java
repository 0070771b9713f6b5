package io.nbench.capacity;

/**
 * One measured step of a capacity search, as the search needs it.
 *
 * @param target          the open-loop rate asked for, messages/s
 * @param achieved        the rate actually sent, messages/s (NaN when nothing was measured)
 * @param answered        the rate of answers over the step's measured iterations, messages/s (NaN when nothing was
 *                        measured): short of the target, the server fell behind and its backlog grew
 * @param metObjective    whether every objective held and the step ran clean (no FAIL of its own)
 * @param nearBoundary    whether a figure judged was close to its limit, so noise could flip the verdict: the
 *                        search repeats such a step before it decides
 * @param capWaits        due messages that waited on the client's in-flight cap in the measured iterations
 * @param sendLagP99Ns    the p99 of the send lag (actual - intended send time) over the measured iterations, ns;
 *                        NaN when unknown
 * @param stealDisturbed  whether a measured iteration lost over
 *                        {@link io.nbench.resources.ResourceUsage#DISTURBED_STEAL_PERCENT} of the CPU to steal
 * @param latencyP99Ns    the p99 latency over the measured iterations (from the intended send times), ns; NaN when
 *                        unknown
 */
public record StepResult(double target, double achieved, double answered, boolean metObjective,
                         boolean nearBoundary, long capWaits, double sendLagP99Ns, boolean stealDisturbed,
                         double latencyP99Ns) {

    /** A step may fall short of its target by this fraction at most, as an open-loop run's own verdict allows. */
    public static final double RATE_TOLERANCE = 0.01;

    /**
     * A send lag p99 above this, with no message waiting on the in-flight cap, means the client's pacer itself was
     * stalled during the step (descheduled, or a collection): the machine, not the server, was what the step saw.
     * 10 ms: the pacer's own lateness is 50-150 µs (docs/measurement.md), a machine stall tens to hundreds of ms.
     */
    public static final double DISTURBED_SEND_LAG_NS = 10e6;

    /** A step with no cap waits, send lag or steal known (a model's, a test's). */
    public StepResult(double target, double achieved, double answered, boolean metObjective, boolean nearBoundary) {
        this(target, achieved, answered, metObjective, nearBoundary, 0, Double.NaN, false);
    }

    /** A step whose latency p99 is not known (a model's, a test's): a disturbance explains any failure. */
    public StepResult(double target, double achieved, double answered, boolean metObjective, boolean nearBoundary,
                      long capWaits, double sendLagP99Ns, boolean stealDisturbed) {
        this(target, achieved, answered, metObjective, nearBoundary, capWaits, sendLagP99Ns, stealDisturbed,
                Double.NaN);
    }

    /**
     * Whether the step passes: the objective met, the target rate sent within 1 % (a server that cannot keep up
     * never passes because the client slowed down with it) and answered within 1 % (a server that falls behind
     * never passes because the step ended before its growing queue reached the latency objective).
     */
    public boolean passed() {
        return metObjective && sentInFull() && answeredInFull();
    }

    /** The client sent the target rate, within 1 %. */
    public boolean sentInFull() {
        return achieved >= target * (1 - RATE_TOLERANCE);
    }

    /** The server answered at the target rate, within 1 %: its queue did not grow over the step. */
    public boolean answeredInFull() {
        return answered >= target * (1 - RATE_TOLERANCE);
    }

    /**
     * Whether the machine was disturbed during the step: steal (the hypervisor took the CPU from client and server
     * alike: every figure is suspect), or the client's pacer stalled (not on its cap) enough to explain the
     * latency: its send lag p99 at least half the step's latency p99. Latency is counted from the intended send
     * times, so it includes the pacer's lateness; a p99 more than twice the send lag's came from beyond the client
     * (issue 36: a 24 ms lag under a 109-340 ms p99 is not the machine's).
     */
    public boolean machineDisturbed() {
        return stealDisturbed || capWaits == 0 && sendLagP99Ns > DISTURBED_SEND_LAG_NS && pacerExplainsLatency();
    }

    /** The send lag p99 is at least half the latency p99 (or the latency is not known: a model's step). */
    private boolean pacerExplainsLatency() {
        return !(latencyP99Ns > 2 * sendLagP99Ns);
    }

    /**
     * Why the step failed ({@link StepCause#NONE} when it passed). Steal first (every figure is suspect). Sent
     * short: the client's, when its objectives held (on its in-flight cap, or not), or when it sent short with no
     * cap wait (its own schedule slipped: the latency breached includes its lateness); but a breach with cap waits
     * is the server's (its answers were slow enough to fill the cap). Sent in full: answered short is the server
     * behind; a breach with the pacer stalled enough to explain it ({@link #machineDisturbed}) is the machine; else
     * the server breached the objective.
     */
    public StepCause cause() {
        if (passed()) {
            return StepCause.NONE;
        }
        if (stealDisturbed) {
            return StepCause.MACHINE_DISTURBED;
        }
        if (!sentInFull()) {
            if (capWaits > 0) {
                return metObjective ? StepCause.IN_FLIGHT_CAP : StepCause.OBJECTIVE_BREACHED;
            }
            return StepCause.SENT_SHORT;
        }
        if (!answeredInFull()) {
            return StepCause.ANSWERED_SHORT;
        }
        return machineDisturbed() ? StepCause.MACHINE_DISTURBED : StepCause.OBJECTIVE_BREACHED;
    }
}
