package io.nbench.client.capacity;

import io.nbench.capacity.Capacity;
import io.nbench.capacity.StepResult;
import io.nbench.report.CapacityTable;
import io.nbench.report.CombinationResult;
import io.nbench.report.Status;
import io.nbench.stats.Summary;
import io.nbench.units.Units;
import java.io.PrintWriter;

/** The line a capacity search prints as each step is judged, so the user sees the bracket close in as it runs. */
final class StepLines {

    private final PrintWriter out;

    StepLines(PrintWriter out) {
        this.out = out;
    }

    void probe(double rate) {
        out.println("capacity probe (closed loop): " + CapacityTable.rate(rate) + " msg/s: the search starts there");
        out.flush();
    }

    void probeAgain(int number, String why) {
        out.println("capacity probe " + number + " (closed loop) measured no throughput (" + why + "): probing again");
        out.flush();
    }

    /**
     * {@code capacity step 3: 4,375/s achieved 4,374/s answered 4,012/s p99 45,123 µs errors 0: FAIL [passed 3,512,
     * failed 4,375]}.
     */
    void step(int number, CombinationResult r, StepResult measured, Capacity sofar) {
        Summary s = r.run().summary();
        String p99 = s.latencyMeasured() ? Units.micros(s.mergedPercentile(99)) + " µs" : "-";
        Capacity.Step last = sofar.steps().get(sofar.steps().size() - 1);
        String verdict = measured.passed() ? "pass" : "FAIL (" + measured.cause().label() + ")";
        if (last.confirming()) {
            verdict += " (the bracket's end measured again)";
        } else if (last.decided() == null) {
            verdict += measured.passed() ? " (near the boundary: measured again)"
                    : " (measured again: a stall of the machine fails a run at any rate)";
        } else if (sofar.steps().size() > 1 && sofar.steps().get(sofar.steps().size() - 2).decided() == null) {
            verdict += " (decided at this rate: " + (last.decided() ? "pass" : "FAIL") + ")";
        }
        out.println("capacity step " + number + ": " + CapacityTable.rate(measured.target()) + "/s achieved "
                + rateOrDash(measured.achieved()) + "/s answered " + rateOrDash(measured.answered()) + "/s p99 " + p99
                + " errors " + Units.count(r.run().errors().total()) + ": " + verdict + " [passed "
                + rateOrDash(sofar.passed()) + ", failed " + rateOrDash(sofar.failed()) + "]"
                + (r.reasons().isEmpty() ? "" : ": " + String.join("; ", r.reasons()))
                + shortfall(r, measured));
        out.flush();
    }

    /** Why a step that met its objectives failed: the client sent, or the server answered, too few. */
    private static String shortfall(CombinationResult r, StepResult measured) {
        if (r.status() != Status.PASS || measured.passed()) {
            return "";
        }
        return measured.sentInFull() ? ": answered short of the target by more than 1% (the server fell behind)"
                : ": sent short of the target by more than 1% (the client fell behind"
                + (measured.capWaits() > 0 ? ": " + Units.count(measured.capWaits()) + " waits on its in-flight cap"
                : "") + "; no bound on the server)";
    }

    static String rateOrDash(double rate) {
        return Double.isNaN(rate) ? "-" : CapacityTable.rate(rate);
    }
}
