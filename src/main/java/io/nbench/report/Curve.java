package io.nbench.report;

import io.nbench.capacity.Capacity;
import io.nbench.capacity.StepResult;
import io.nbench.stats.Summary;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Latency against load: one point per open-loop step of a capacity search ({@code --find-rate}) or a rate sweep
 * ({@code --rate-sweep}), in order of the rate offered (a search's repetitions stay in the order they ran).
 *
 * <p>The knee is the highest-offered point whose p99 is within {@link #KNEE_FACTOR} times the curve's low-load p99,
 * its lowest p99: every point offered more lies beyond that (a point that measured no latency lies beyond it). None
 * when that is the last point (the curve has not turned up within the rates offered), when that point was sent short
 * of its rate (the client's limit came first: a --find-rate curve whose highest low-latency point was "sent short")
 * or no point measured latency.
 * Why this rule: below a server's capacity an open-loop p99 stays near its low-load value; past it the queue grows
 * for as long as a step runs, so p99 leaves any fixed multiple of it behind. A stall of the machine only raises
 * latency: at a rate below the knee it does not move the knee, at the knee it moves it down one point, and no stall
 * moves it above the capacity. The lowest p99 is the low-load value's best estimate for the same reason.
 *
 * @param points in order of the rate offered
 * @param knee   the index of the knee in {@code points}; -1: none
 */
public record Curve(List<Point> points, int knee) {

    /** How far p99 may rise over its low-load value before the curve has turned up. */
    public static final double KNEE_FACTOR = 3;

    public Curve {
        points = List.copyOf(points);
    }

    /**
     * One step. Latencies in ns, NaN when no message completed; rates in msg/s, NaN when nothing was measured.
     *
     * @param combination its combination's name
     * @param offered     the open-loop rate asked for
     * @param achieved    the rate sent
     * @param answered    the rate answered over the measured iterations
     * @param errors      errors over the measured iterations
     * @param cause       why the step failed as the search judges a step ({@code passed} when it did not)
     */
    public record Point(String combination, double offered, double achieved, double answered, double p50, double p99,
                        double p999, long errors, String cause) {

        /** Whether the rate offered was sent, within {@link StepResult#RATE_TOLERANCE}. */
        public boolean sentInFull() {
            return achieved >= offered * (1 - StepResult.RATE_TOLERANCE);
        }

        /** The point of a measured step, its rates and cause as {@code step} has them. */
        public static Point of(CombinationResult r, StepResult step) {
            Summary s = r.run().summary();
            boolean measured = s.latencyMeasured();
            return new Point(r.combination().name(), step.target(), step.achieved(), step.answered(),
                    measured ? s.mergedPercentile(50) : Double.NaN, measured ? s.mergedPercentile(99) : Double.NaN,
                    measured ? s.mergedPercentile(99.9) : Double.NaN, r.run().errors().total(), step.cause().label());
        }
    }

    /** The curve of these points, sorted by the rate offered, its knee found. */
    public static Curve of(List<Point> unsorted) {
        List<Point> sorted = new ArrayList<>(unsorted);
        sorted.sort(Comparator.comparingDouble(Point::offered)); // stable: repetitions keep their order
        return new Curve(sorted, knee(sorted));
    }

    /** A capacity search's curve: its steps, each paired with its combination (those but the probes, in order). */
    public static Curve ofSearch(Capacity capacity, List<CombinationResult> combinations) {
        List<CombinationResult> steps = combinations.stream()
                .filter(r -> !Capacity.PROBE.equals(r.combination().get("rate"))).toList();
        List<Point> points = new ArrayList<>();
        for (int i = 0; i < Math.min(steps.size(), capacity.steps().size()); i++) {
            points.add(Point.of(steps.get(i), capacity.steps().get(i).result()));
        }
        return of(points);
    }

    /**
     * The knee's index in {@code points}; -1 when none (see the class comment). The highest point within the
     * factor must also have been sent at its offered rate (within {@link StepResult#RATE_TOLERANCE}): a step the
     * client sent short measured its latency at a lower load than it names, so when it is that highest point the
     * curve did not turn up where the client could reach (none), rather than a knee at a rate never carried.
     */
    public static int knee(List<Point> points) {
        double floor = lowLoadP99(points);
        if (Double.isNaN(floor)) {
            return -1;
        }
        int knee = -1;
        for (int i = 0; i < points.size(); i++) {
            if (points.get(i).p99() <= KNEE_FACTOR * floor) {
                knee = i;
            }
        }
        if (knee >= 0 && !points.get(knee).sentInFull()) {
            return -1;
        }
        return knee == points.size() - 1 ? -1 : knee;
    }

    /** The lowest p99 of these points, ns; NaN when none measured latency. */
    public static double lowLoadP99(List<Point> points) {
        return points.stream().mapToDouble(Point::p99).filter(v -> !Double.isNaN(v)).min().orElse(Double.NaN);
    }

    /** The knee, or null when the curve has none. */
    public Point kneePoint() {
        return knee < 0 ? null : points.get(knee);
    }
}
