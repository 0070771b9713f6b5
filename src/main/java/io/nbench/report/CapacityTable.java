package io.nbench.report;

import io.nbench.capacity.Capacity;
import io.nbench.capacity.StepCause;
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
        String run = step.result().passed() ? "pass" : "FAIL (" + step.result().cause().label() + ")";
        return step.confirming() ? run + " (confirm)" : step.decided() == null ? run + " (again)" : run;
    }

    /**
     * {@code capacity: 3,540 requests/s within p99<=10ms [between 3,540 passed (3 runs, 3 passed, answered
     * 3,538-3,541/s) and 3,610 failed (4 runs, 0 passed, answered 3,420-3,580/s)]}: the highest rate that passed, and
     * the lowest above it that failed for the server, between which the capacity lies, each with the spread of
     * its runs. Client limited: "at least" the rate passed, and what limited the client; unstable: when the
     * passing rate passed and when it failed.
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
        if (c.outcome() == Capacity.Outcome.UNSTABLE) {
            return "capacity: unstable" + within + ": " + unstable(c);
        }
        if (!Double.isNaN(c.clientLimit())) {
            return "capacity: at least " + rate(c.passed()) + " requests/s" + within + " (" + limitedBy(c)
                    + "; the server's limit was not reached)" + stopped;
        }
        if (Double.isNaN(c.failed())) {
            return "capacity: at least " + rate(c.passed()) + " requests/s" + within
                    + " [passed at " + rate(c.passed()) + spread(c.spreadAt(c.passed())) + ", no higher rate tried]"
                    + stopped;
        }
        return "capacity: " + rate(c.passed()) + " requests/s" + within + " [between "
                + rate(c.passed()) + " passed" + spread(c.spreadAt(c.passed())) + " and " + rate(c.failed())
                + " failed" + spread(c.spreadAt(c.failed())) + "]" + stopped;
    }

    /** {@code  (3 runs, 2 passed, answered 396-399/s)}: the repeat measurements at one rate. */
    private static String spread(Capacity.Spread s) {
        if (s.runs() == 0) {
            return "";
        }
        String answered = Double.isNaN(s.answeredMin()) ? "" : ", answered " + rate(s.answeredMin())
                + (rate(s.answeredMin()).equals(rate(s.answeredMax())) ? "" : "-" + rate(s.answeredMax())) + "/s";
        return " (" + s.runs() + (s.runs() == 1 ? " run, " : " runs, ") + s.passes() + " passed" + answered + ")";
    }

    /**
     * {@code limited by the client: 5,076 in-flight-cap waits, send lag p99 12,345 µs at 2,000/s (in-flight cap hit)}: the runs at the client's
     * limit, by whose limit they showed (the client's, else the machine's), with the most cap waits and the
     * highest send lag p99 of them.
     */
    private static String limitedBy(Capacity c) {
        long waits = 0;
        double lag = Double.NaN;
        boolean client = false;
        List<String> causes = new ArrayList<>();
        for (Capacity.Step s : c.steps()) {
            if (s.result().target() != c.clientLimit() || s.result().passed()) {
                continue;
            }
            waits = Math.max(waits, s.result().capWaits());
            double l = s.result().sendLagP99Ns();
            lag = Double.isNaN(lag) || l > lag ? l : lag;
            client |= s.result().cause().party() == StepCause.Party.CLIENT;
            if (!causes.contains(s.result().cause().label())) {
                causes.add(s.result().cause().label());
            }
        }
        return "limited by the " + (client ? "client" : "machine") + ": " + Units.count(waits)
                + " in-flight-cap waits, send lag p99 " + (Double.isNaN(lag) ? "-" : Units.micros(lag) + " µs")
                + " at " + rate(c.clientLimit()) + "/s (" + String.join(", ", causes) + ")";
    }

    /**
     * {@code the server's capacity changed during the search: 423/s passed at 0:05 and failed at 1:40, answered
     * 52/s}: the first pass at the answer, and its last failing run after the bracket closed; when that run
     * failed for the machine's or the client's cause, the answer could not be confirmed (the server may not have
     * changed), and the line says so.
     */
    private static String unstable(Capacity c) {
        Capacity.Step pass = null;
        Capacity.Step fail = null;
        for (Capacity.Step s : c.steps()) {
            if (s.result().target() != c.passed()) {
                continue;
            }
            if (pass == null && s.result().passed()) {
                pass = s;
            }
            if (s.confirming() && !s.result().passed()) {
                fail = s;
            }
        }
        String answered = ", answered "
                + (fail == null || Double.isNaN(fail.result().answered()) ? "-" : rate(fail.result().answered()))
                + "/s";
        if (fail != null && !fail.result().cause().boundsTheServer()) {
            return "the answer could not be confirmed: " + rate(c.passed()) + "/s passed at " + clock(pass)
                    + " and failed again at " + clock(fail) + " (" + fail.result().cause().label() + ")" + answered
                    + "; run again on a quiet machine";
        }
        return "the server's capacity changed during the search: " + rate(c.passed()) + "/s passed at "
                + clock(pass) + " and failed at " + clock(fail) + answered;
    }

    /** {@code 1:40}: minutes and seconds since the search began. */
    private static String clock(Capacity.Step s) {
        if (s == null) {
            return "-";
        }
        long seconds = s.atNanos() / 1_000_000_000L;
        return String.format(Locale.ROOT, "%d:%02d", seconds / 60, seconds % 60);
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
