package io.nbench.report.json;

import io.nbench.report.Curve;
import java.util.ArrayList;
import java.util.List;

/**
 * The curve of latency against load in the result document ({@code curve}: in {@code capacity} with
 * {@code --find-rate}, at the top with {@code --rate-sweep}): one point per open-loop step in order of the rate
 * offered, the knee marked ({@link Curve} says by which rule).
 *
 * @param points in order of the rate offered
 */
public record CurveDoc(List<Point> points) {

    public CurveDoc {
        points = List.copyOf(points);
    }

    /**
     * One step; rates in msg/s, latencies in ns, each null when nothing was measured.
     *
     * @param combination  its combination's name
     * @param offeredRate  the open-loop rate asked for
     * @param achievedRate the rate sent
     * @param answeredRate the rate answered over the measured iterations
     * @param errors       errors in the measured iterations
     * @param cause        why the step failed as a capacity search judges steps ({@code passed}: it did not)
     * @param knee         whether this point is the curve's knee
     */
    public record Point(String combination, double offeredRate, Double achievedRate, Double answeredRate, Long p50,
                        Long p99, Long p999, long errors, String cause, boolean knee) {
    }

    static CurveDoc of(Curve curve) {
        List<Point> points = new ArrayList<>();
        for (int i = 0; i < curve.points().size(); i++) {
            Curve.Point p = curve.points().get(i);
            points.add(new Point(p.combination(), p.offered(), orNull(p.achieved()), orNull(p.answered()),
                    nanos(p.p50()), nanos(p.p99()), nanos(p.p999()), p.errors(), p.cause(), i == curve.knee()));
        }
        return new CurveDoc(points);
    }

    private static Double orNull(double v) {
        return Double.isNaN(v) ? null : v;
    }

    private static Long nanos(double v) {
        return Double.isNaN(v) ? null : Math.round(v);
    }
}
