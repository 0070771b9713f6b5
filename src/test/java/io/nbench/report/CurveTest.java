package io.nbench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The knee's rule: the highest-offered point whose p99 is within 3x the curve's lowest p99, none at the last. */
class CurveTest {

    /** Points at 100, 200, ... offered, each with this p99 in ms (NaN: nothing measured), given out of order. */
    private static Curve curve(double... p99Millis) {
        List<Curve.Point> points = new ArrayList<>();
        for (int i = p99Millis.length - 1; i >= 0; i--) {
            double rate = 100 * (i + 1);
            points.add(new Curve.Point("c" + i, rate, rate, rate, 1e6, p99Millis[i] * 1e6, p99Millis[i] * 1e6, 0,
                    "passed"));
        }
        return Curve.of(points);
    }

    @Test
    void theKneeIsTheLastPointBeforeTheTailLeavesThreeTimesItsFloor() {
        Curve c = curve(10, 11, 12, 29, 31, 200);
        assertEquals(List.of(100.0, 200.0, 300.0, 400.0, 500.0, 600.0),
                c.points().stream().map(Curve.Point::offered).toList(), "in order of the rate offered");
        assertEquals(400.0, c.kneePoint().offered(), "29 ms is within 3 x 10 ms, 31 ms is not");
    }

    @Test
    void aStallBelowTheKneeDoesNotMoveItNorDoesTheFirstPointsNoise() {
        assertEquals(400.0, curve(25, 10, 80, 12, 90, 300).kneePoint().offered(),
                "80 ms at 300/s is a stall: 12 ms at 400/s is within 3 x the floor, 10 ms");
        assertEquals(300.0, curve(Double.NaN, 10, 12, 50).kneePoint().offered(), "the first point measured nothing");
    }

    @Test
    void noKneeWhenTheCurveNeverTurnsUpOrNothingWasMeasured() {
        assertNull(curve(10, 11, 12).kneePoint(), "within 3x up to the last point: not reached");
        assertEquals(-1, curve(10, 11, 12).knee());
        assertNull(curve(Double.NaN, Double.NaN).kneePoint());
        assertEquals(200.0, curve(10, 12, Double.NaN).kneePoint().offered(), "nothing answered lies beyond");
        // The highest low-latency point sent short of its rate (the client's limit, not a server's knee): none.
        List<Curve.Point> clientLimited = new ArrayList<>(curve(10, 11, 200).points());
        clientLimited.set(1, new Curve.Point("c1", 200, 150, 150, 1e6, 11e6, 11e6, 0, "sent short"));
        assertNull(Curve.of(clientLimited).kneePoint(), "a knee at 200/s, never sent: " + Curve.of(clientLimited));
        assertEquals("knee: not reached (p99 is within 3x the curve's lowest, 10,000 µs, up to the highest rate "
                + "offered)", CurveTable.knee(curve(10, 11, 12)));
        assertEquals("knee: 400/s offered, 400/s achieved, p99 29,000 µs (the highest rate whose p99 is within 3x "
                + "the curve's lowest, 10,000 µs)", CurveTable.knee(curve(10, 11, 12, 29, 31, 200)));
    }
}
