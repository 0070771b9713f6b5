package io.nbench.cli;

import io.nbench.client.ClientSpec;
import io.nbench.client.MaxErrors;
import io.nbench.client.capacity.CapacitySettings;
import io.nbench.report.threshold.Threshold;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** {@code --find-rate} and its options: a search for the highest open-loop rate that meets the objectives. */
final class CapacityOptions {

    /** Each open-loop step's iterations when neither --msgs nor --iteration-time is given. */
    static final Duration DEFAULT_STEP_ITERATION = Duration.ofSeconds(1);

    @Option(names = "--find-rate",
            description = "Capacity: search for the highest open-loop rate that meets every --slo. A closed-loop "
                    + "probe gives the first guess, growing steps bracket the capacity, bisection narrows it to "
                    + "--rate-resolution; each step is a full measurement (warmup and iterations; 1s iterations "
                    + "unless --iteration-time or --msgs is given) and fails if it sends or answers short of its rate "
                    + "by over 1%%; a failing step is measured again, up to 3 runs (a stall fails a run at any "
                    + "rate). Prints a line per step, a table and 'capacity: N requests/s within EXPR [between A "
                    + "passed and B failed]'. Only a failure of the server's (objective breached, answered short) "
                    + "bounds it: a rate the client could not send (sent short, in-flight cap hit) or the machine "
                    + "disturbed is no bound. Exit 0 when some rate passed, 3 when none did, 7 when the client "
                    + "limited it, 8 when the answer no longer passed at the end (default: off).")
    boolean findRate;

    @Option(names = "--slo", paramLabel = "EXPR",
            description = "With --find-rate, repeatable: an objective every passing step meets, in the --threshold "
                    + "grammar, e.g. 'p99<=10ms', 'p99.9<=5ms', 'errors<=0.1%%' (a percentage of errors is "
                    + "error-rate) (default: none).")
    List<String> slos = new ArrayList<>();

    @Option(names = "--rate-resolution", paramLabel = "PCT",
            description = "With --find-rate: the search stops when the rate that failed is within PCT of the rate "
                    + "that passed, e.g. 2%% or 0.5%% (default: 2%%).")
    String resolution;

    @Option(names = "--max-time", paramLabel = "D", converter = Converters.Time.class,
            description = "With --find-rate: no step starts that would end after D (by the last step's length), "
                    + "e.g. 2m; the bracket found so far is printed (default: no limit).")
    Duration maxTime;

    @Option(names = "--confirm", paramLabel = "D", converter = Converters.Time.class,
            description = "With --find-rate: once the bracket is narrow enough, its passing and failing rates are "
                    + "measured once more, interleaved (a pass that no longer passes makes the outcome unstable, "
                    + "exit 8); the passing rate's measurement lasts D, e.g. 10s (default: a step's iterations).")
    Duration confirm;

    /** Usage errors of these options among themselves and with the client's others. */
    void check(CommandSpec spec, LoadOptions load, List<String> thresholds) {
        if (!findRate) {
            String given = !slos.isEmpty() ? "--slo" : resolution != null ? "--rate-resolution"
                    : maxTime != null ? "--max-time" : confirm != null ? "--confirm" : null;
            if (given != null) {
                throw usage(spec, given + " belongs to a capacity search: add --find-rate");
            }
            return;
        }
        if (slos.isEmpty()) {
            throw usage(spec, "--find-rate needs an objective: add e.g. --slo 'p99<=10ms'");
        }
        if (load.rate != null) {
            throw usage(spec, "--find-rate searches the rate itself: leave out --rate");
        }
        if (!thresholds.isEmpty()) {
            throw usage(spec, "--find-rate judges each step by --slo: give the --threshold expressions as --slo");
        }
        if (load.forks > 1) {
            throw usage(spec, "--find-rate runs one search: leave out --forks");
        }
    }

    /** The search's settings; each step's iterations as the load options say. */
    CapacitySettings settings(CommandSpec spec, LoadOptions load, MaxErrors maxErrors) {
        List<Threshold> objectives = objectives(spec);
        if (maxTime != null && maxTime.isZero()) {
            throw usage(spec, "--max-time 0 leaves no time for a step: give e.g. --max-time 2m");
        }
        Duration iteration = iterationTime(load);
        if (confirm != null && (confirm.isZero() || iteration == null)) {
            throw usage(spec, confirm.isZero() ? "--confirm 0 measures nothing: give e.g. --confirm 10s"
                    : "--confirm D needs time-based steps: leave out --msgs or --confirm");
        }
        int confirmIterations = confirm == null ? load.iterations
                : (int) Math.max(1, Math.min(Integer.MAX_VALUE, -Math.floorDiv(-confirm.toNanos(), iteration.toNanos())));
        return new CapacitySettings(objectives, resolution(spec), maxTime, load.warmup, load.iterations, maxErrors,
                confirmIterations);
    }

    /** These options, typed ({@link ChildClient}); a value that does not parse is a usage error. */
    ClientSpec.Capacity clientSettings(CommandSpec spec) {
        return new ClientSpec.Capacity(findRate, objectives(spec),
                resolution == null ? null : resolutionPercent(spec), maxTime, confirm);
    }

    /** Sets these options to a child client's settings, each as the command line spells it. */
    void set(ClientSpec.Capacity c) {
        findRate = c.findRate();
        slos = new ArrayList<>(c.slos().stream().map(Threshold::expression).toList());
        resolution = c.resolutionPercent() == null ? null : OutputOptions.plain(c.resolutionPercent()) + "%";
        maxTime = c.maxTime();
        confirm = c.confirm();
    }

    private List<Threshold> objectives(CommandSpec spec) {
        List<Threshold> objectives = new ArrayList<>();
        for (String s : slos) {
            try {
                objectives.add(Threshold.parse(s, "--slo"));
            } catch (IllegalArgumentException e) {
                throw usage(spec, Converters.oneLine(e.getMessage()));
            }
        }
        return objectives;
    }

    /** Each step's iterations: as given, else time-based of {@link #DEFAULT_STEP_ITERATION}. */
    Duration iterationTime(LoadOptions load) {
        return load.msgs == null && load.iterationTime == null ? DEFAULT_STEP_ITERATION : load.iterationTime;
    }

    /** {@code 2%}, {@code 0.5%} or {@code 2}: a percentage as a fraction. */
    private double resolution(CommandSpec spec) {
        return resolution == null ? CapacitySettings.DEFAULT_RESOLUTION : resolutionPercent(spec) / 100;
    }

    private double resolutionPercent(CommandSpec spec) {
        String text = resolution.strip();
        text = text.endsWith("%") ? text.substring(0, text.length() - 1).strip() : text;
        double pct;
        try {
            pct = Double.parseDouble(text);
        } catch (NumberFormatException e) {
            pct = Double.NaN;
        }
        if (!(pct > 0 && pct < 100)) {
            throw usage(spec, Converters.oneLine("--rate-resolution '" + resolution + "' is not a percentage above 0 "
                    + "and below 100: use e.g. 2% or 0.5%"));
        }
        return pct;
    }

    private static ParameterException usage(CommandSpec spec, String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
