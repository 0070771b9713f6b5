package io.nbench.cli;

import io.nbench.client.ClientPlan;
import io.nbench.client.ClientRun;
import io.nbench.client.RateSweep;
import io.nbench.client.capacity.RateSweepSteps;
import io.nbench.report.SweepResult;
import java.util.List;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;

/** {@code --rate-sweep}: open-loop steps at evenly spaced rates, and the curve of latency against load they make. */
final class RateSweepOptions {

    @Option(names = "--rate-sweep", paramLabel = "FROM..TO[/STEPS]", converter = Form.class,
            description = "The latency-versus-load curve: one open-loop step (warmup and iterations; 1s iterations "
                    + "unless --iteration-time or --msgs is given) at each of STEPS rates spaced evenly from FROM to "
                    + "TO msg/s, both included, e.g. 100..500/9 (STEPS default 10). Prints each step, then the curve "
                    + "(offered, achieved and answered rate, p50, p99, p99.9, errors, why a step fell short) and its "
                    + "knee: the last point before p99 exceeds 3x the lowest rate's; writes it to --out as 'curve' "
                    + "and draws it in nbench report. A rate missed is shown, not failed: the exit code is "
                    + "--max-errors' and --threshold's (default: off).")
    RateSweep rateSweep;

    /** The sweep's rates; null without one (a capacity search's steps then set theirs). */
    List<Double> rates() {
        return rateSweep == null ? null : rateSweep.rates();
    }

    /** Usage errors of {@code --rate-sweep} with the client's other options. */
    void check(CommandSpec spec, LoadOptions load, boolean findRate) {
        if (rateSweep == null) {
            return;
        }
        if (findRate) {
            throw usage(spec, "--rate-sweep and --find-rate both choose the rates: use one of them");
        }
        if (load.rate != null) {
            throw usage(spec, "--rate-sweep sets the rates itself: leave out --rate");
        }
        if (load.forks > 1) {
            throw usage(spec, "--rate-sweep runs one sweep: leave out --forks");
        }
    }

    /** A sweep measures one combination at each rate, as a capacity search does. */
    void checkPlan(CommandSpec spec, ClientPlan plan) {
        if (rateSweep != null && plan.steps().size() != rateSweep.steps()) {
            throw usage(spec, "--rate-sweep measures one combination at each rate: give one value to --impl, "
                    + "--size, --threads, --window and each -O");
        }
    }

    /** Runs the plan: a sweep's steps end in the curve of latency against load; else as planned. */
    SweepResult run(ClientRun run, ClientPlan plan) {
        return rateSweep != null ? run.run(new RateSweepSteps(plan)) : run.run();
    }

    private static ParameterException usage(CommandSpec spec, String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    /** {@code 100..500/9}: a form that does not parse is a one-line usage error naming the fix. */
    static final class Form implements ITypeConverter<RateSweep> {
        @Override
        public RateSweep convert(String value) {
            try {
                return RateSweep.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(Converters.oneLine(e.getMessage()));
            }
        }
    }
}
