package io.nbench.report;

import io.nbench.capacity.Capacity;
import io.nbench.stats.Summary;
import io.nbench.units.Units;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The end of a capacity search's text output: one row per step (rate, the rates sent and answered, latency, errors,
 * verdict),
 * then the answer on one line with the bracket it lies in.
 */
public final class CapacityTable {

    private CapacityTable() {
    }

    public static void print(PrintWriter out, SweepResult sweep) {
        Capacity capacity = sweep.capacity();
        List<String> head = List.of("step", "rate/s", "achieved/s", "answered/s", "p50 µs", "p99 µs", "p99.9 µs", "max µs",
                "errors", "result");
        List<List<String>> rows = new ArrayList<>();
        List<CombinationResult> all = sweep.combinations();
        int judged = 0; // the search's steps so far: the combinations but the probes, in order
        for (int i = 0; i < all.size(); i++) {
            CombinationResult c = all.get(i);
            Summary s = c.run().summary();
            List<String> row = new ArrayList<>();
            row.add(Integer.toString(i));
            boolean probe = Capacity.PROBE.equals(c.combination().get("rate"));
            Capacity.Step step = probe || judged >= capacity.steps().size() ? null : capacity.steps().get(judged++);
            if (probe) {
                row.add("closed loop");
                row.add("-"); // no schedule to achieve
                row.add(rateOrDash(s.throughput().mean()));
            } else if (step == null) { // cut short (interrupted), so the search never judged it
                row.add(rate(c.spec().rate()));
                row.add("-");
                row.add("-");
            } else {
                row.add(rate(step.result().target()));
                row.add(rateOrDash(step.result().achieved()));
                row.add(rateOrDash(step.result().answered()));
            }
            for (double p : new double[] {50, 99, 99.9, 100}) {
                row.add(s.latencyMeasured() ? Units.micros(s.mergedPercentile(p)) : "-");
            }
            row.add(Units.count(c.run().errors().total()));
            row.add(probe ? "probe" : step == null ? c.status().name() : verdict(step));
            rows.add(row);
        }
        out.println("================================================");
        out.println("CAPACITY SEARCH (" + capacity.objective() + ", resolution "
                + percent(capacity.resolution()) + ")");
        out.println("================================================");
        TextTable.print(out, head, rows, 1);
        out.println(answer(capacity));
        out.flush();
    }

    private static String verdict(Capacity.Step step) {
        String run = step.result().passed() ? "pass" : "FAIL";
        return step.decided() == null ? run + " (again)" : run;
    }

    /**
     * {@code capacity: 3,540 requests/s within p99<=10ms [between 3,540 passed and 3,610 failed]}: the highest
     * rate that passed, and the lowest above it that failed, between which the capacity lies.
     */
    public static String answer(Capacity c) {
        String within = " within " + c.objective();
        String stopped = switch (c.outcome()) {
            case STOPPED -> " (stopped by --max-time"
                    + (c.found() && !Double.isNaN(c.failed()) ? " at " + percent(c.width()) + " wide, not "
                    + percent(c.resolution()) : "") + ")";
            case INTERRUPTED -> " (interrupted)";
            default -> "";
        };
        if (!c.found()) {
            return "capacity: not found: no rate tried met" + within.substring(" within".length())
                    + (Double.isNaN(c.failed()) ? "" : " (the lowest tried, " + rate(c.failed())
                    + " requests/s, failed)") + stopped;
        }
        if (Double.isNaN(c.failed())) {
            return "capacity: at least " + rate(c.passed()) + " requests/s" + within
                    + " [passed at " + rate(c.passed()) + ", no higher rate tried]" + stopped;
        }
        return "capacity: " + rate(c.passed()) + " requests/s" + within + " [between "
                + rate(c.passed()) + " passed and " + rate(c.failed()) + " failed]" + stopped;
    }

    private static String rateOrDash(double perSecond) {
        return Double.isNaN(perSecond) ? "-" : rate(perSecond);
    }

    /** msg/s as the search ran them: whole numbers with separators, one decimal below 100/s. */
    public static String rate(double perSecond) {
        return perSecond < 100 ? String.format(Locale.ROOT, "%.1f", perSecond) : Units.rate(perSecond);
    }

    private static String percent(double fraction) {
        double p = fraction * 100;
        if (p == Math.rint(p)) {
            return String.format(Locale.ROOT, "%d%%", (long) p);
        }
        return String.format(Locale.ROOT, "%.2f", p).replaceAll("0+$", "") + "%";
    }
}
