package io.nbench.report;

import io.nbench.units.Units;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * The curve of latency against load in the text output: one row per step in order of the rate offered, the knee
 * marked, and a line saying where it is and by which rule ({@link Curve}).
 */
public final class CurveTable {

    private CurveTable() {
    }

    public static void print(PrintWriter out, Curve curve) {
        List<String> head = List.of("offered/s", "achieved/s", "answered/s", "p50 µs", "p99 µs", "p99.9 µs", "errors",
                "knee", "cause");
        List<List<String>> rows = new ArrayList<>();
        for (int i = 0; i < curve.points().size(); i++) {
            Curve.Point p = curve.points().get(i);
            rows.add(List.of(CapacityTable.rate(p.offered()), rate(p.achieved()), rate(p.answered()), micros(p.p50()),
                    micros(p.p99()), micros(p.p999()), Units.count(p.errors()), i == curve.knee() ? "<- knee" : "",
                    p.cause()));
        }
        out.println("================================================");
        out.println("LATENCY AGAINST LOAD (" + curve.points().size() + " open-loop steps, by rate offered)");
        out.println("================================================");
        TextTable.print(out, head, rows, 0);
        out.println(knee(curve));
        out.flush();
    }

    /**
     * {@code knee: 180/s offered, 179.9/s achieved, p99 10,412 µs (the highest rate whose p99 is within 3x the
     * curve's lowest, 10,301 µs)}.
     */
    public static String knee(Curve curve) {
        double floor = Curve.lowLoadP99(curve.points());
        if (Double.isNaN(floor)) {
            return "knee: none (no step measured latency)";
        }
        String rule = "p99 is within " + factor() + "x the curve's lowest, " + micros(floor) + " µs";
        Curve.Point k = curve.kneePoint();
        if (k == null) {
            return "knee: not reached (p99 is within " + factor() + "x the curve's lowest, " + micros(floor)
                    + " µs, up to the highest rate offered)";
        }
        return "knee: " + CapacityTable.rate(k.offered()) + "/s offered, " + rate(k.achieved()) + "/s achieved, p99 "
                + micros(k.p99()) + " µs (the highest rate whose " + rule + ")";
    }

    private static String factor() {
        return Curve.KNEE_FACTOR == Math.rint(Curve.KNEE_FACTOR) ? Long.toString((long) Curve.KNEE_FACTOR)
                : Double.toString(Curve.KNEE_FACTOR);
    }

    private static String rate(double perSecond) {
        return Double.isNaN(perSecond) ? "-" : CapacityTable.rate(perSecond);
    }

    private static String micros(double nanos) {
        return Double.isNaN(nanos) ? "-" : Units.micros(nanos);
    }
}
