package io.nbench.cli;

import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * wrk's {@code -d} and ab's and oha's {@code -n} onto the iteration options: one measured run of that duration or of
 * exactly that many requests, with no warmup unless {@code --warmup} is given. Resolved once, where the user's
 * command line is parsed; a fork or {@code nbench run}'s client receives the resolved warmup and iterations.
 */
final class RunLength {

    private RunLength() {
    }

    /** Checks -n and -d against the iteration options given with them and sets the warmup and iterations. */
    static void resolve(CommandSpec spec, LoadOptions load) {
        ParseResult parsed = spec.commandLine().getParseResult();
        if (parsed == null || !parsed.hasMatchedOption("-n") && !parsed.hasMatchedOption("-d")) {
            return; // not given here: a fork's settings are resolved already
        }
        String option = load.requests != null ? "-n" : "-d";
        List<String> excluded = load.requests != null ? List.of("-d", "--msgs", "--iterations", "--iteration-time")
                : List.of("--msgs", "--iterations", "--iteration-time");
        for (String other : excluded) {
            if (parsed.hasMatchedOption(other)) {
                throw new ParameterException(spec.commandLine(), option + " plans the whole run (one measured "
                        + "iteration): it excludes " + other + "; give " + option + " alone, or --iterations with --msgs or "
                        + "--iteration-time");
            }
        }
        if (load.requests != null && load.requests < 1) {
            throw new ParameterException(spec.commandLine(), "-n must be at least 1");
        }
        load.iterations = 1;
        if (!parsed.hasMatchedOption("--warmup")) {
            load.warmup = 0;
        }
        if (load.duration != null) {
            load.iterationTime = load.duration;
        }
    }
}
