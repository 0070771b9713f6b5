package io.nbench.cli;

import io.nbench.stats.Percentiles;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** The client's output and verdict options. */
final class OutputOptions {

    @Option(names = "--percentiles", paramLabel = "LIST", defaultValue = "25,50,75,90,95,99,99.9,100",
            description = "Percentiles to report (default: ${DEFAULT-VALUE}).")
    String percentiles;

    @Option(names = "--max-errors", paramLabel = "N|P%", defaultValue = "0",
            description = "Errors tolerated before the run FAILs (exit 4), as a count or a percentage of messages (default: ${DEFAULT-VALUE}).")
    String maxErrors;

    @Option(names = "--quiet", description = "Print only the header and the summary, not each iteration.")
    boolean quiet;

    List<Double> percentiles(CommandSpec spec) {
        try {
            return Percentiles.parse(percentiles);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    MaxErrors maxErrors(CommandSpec spec) {
        return MaxErrors.parse(spec, maxErrors);
    }

    /** {@code --max-errors}: a count, or a percentage of messages. */
    static record MaxErrors(long count, double percent) {

        static MaxErrors parse(CommandSpec spec, String text) {
            try {
                if (text.endsWith("%")) {
                    double p = Double.parseDouble(text.substring(0, text.length() - 1));
                    if (p < 0 || p > 100) {
                        throw new NumberFormatException();
                    }
                    return new MaxErrors(-1, p);
                }
                long n = Long.parseLong(text);
                if (n < 0) {
                    throw new NumberFormatException();
                }
                return new MaxErrors(n, -1);
            } catch (NumberFormatException e) {
                throw new ParameterException(spec.commandLine(),
                        "--max-errors '" + text + "' is neither a count nor a percentage: use e.g. 0, 10 or 0.1%");
            }
        }

        boolean exceeded(long errors, long attempts) {
            if (count >= 0) {
                return errors > count;
            }
            return attempts > 0 && errors * 100.0 / attempts > percent;
        }
    }
}
