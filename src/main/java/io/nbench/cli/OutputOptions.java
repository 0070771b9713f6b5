package io.nbench.cli;

import io.nbench.report.ProgressLine;
import io.nbench.report.Tty;
import io.nbench.report.threshold.Threshold;
import io.nbench.stats.Percentiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** The client's output and verdict options. */
final class OutputOptions {

    @ArgumentFiles.CommaList
    /** Set from a client plan: the command line the user gave, which this client was not parsed from. */
    List<String> givenArguments;

    @Option(names = "--percentiles", paramLabel = "LIST", defaultValue = "25,50,75,90,95,99,99.9,100",
            description = "Percentiles to report (default: ${DEFAULT-VALUE}).")
    String percentiles;

    @Option(names = "--max-errors", paramLabel = "N|P%", defaultValue = "0",
            description = "Errors tolerated before the run FAILs (exit 4), as a count or a percentage of messages (default: ${DEFAULT-VALUE}).")
    String maxErrors;

    @Option(names = "--host-label", paramLabel = "NAME",
            description = "Name this client host in its results (environment.host, the CSV's host), e.g. for "
                    + "nbench report --merge of several hosts (default: the machine's host name).")
    String hostLabel;

    @Option(names = "--quiet", description = "Print only the header and the summary, not each iteration (default: off).")
    boolean quiet;

    @Option(names = "--format", paramLabel = "text|json|csv|ndjson", defaultValue = "text",
            description = "What goes to stdout (default: ${DEFAULT-VALUE}). json: the result document only; csv: a row "
                    + "per iteration; ndjson: a JSON line per second, then the result document. Anything else goes to stderr.")
    Format format;

    @Option(names = "--no-header", description = "With --format csv: no header line, for appending to a file (default: off, a header line).")
    boolean noHeader;

    @Option(names = "--out", paramLabel = "FILE",
            description = "Write the full result document (JSON, schema nbench-result/1) to FILE, atomically (default: "
                    + "none).")
    Path out;

    @Option(names = "--hdr-log", paramLabel = "FILE",
            description = "Write an HdrHistogram interval log, one interval per second (default: none).")
    Path hdrLog;

    @Option(names = "--hgrm", paramLabel = "TEMPLATE",
            description = "Write each combination's percentile distribution (ms, the unit HdrHistogram's plotter "
                    + "assumes) for its plotter; "
                    + "{combination} in TEMPLATE becomes the combination's name, e.g. lat-{combination}.hgrm (default: none).")
    String hgrm;

    @Option(names = "--threshold", paramLabel = "EXPR",
            description = "Gate, repeatable: METRIC OP VALUE, e.g. 'p99<2ms', 'throughput>=100k', 'errors==0'. "
                    + "METRIC: pN (any percentile: p50, p99.9), min, mean, max (latency: ns, us, ms or s; a bare "
                    + "number is µs); throughput, rate-achieved (msg/s; k, m suffixes); errors (a count); "
                    + "error-rate (%%). OP: < <= > >= == !=. A breach exits 3 (default: none).")
    List<String> thresholds = new ArrayList<>();

    @Option(names = "--progress", paramLabel = "auto|always|never", defaultValue = "auto",
            description = "Status line on stderr every second; auto: only when stderr is a terminal, one line rewritten in place "
                    + "(plain lines with TERM=dumb); always: also into a file or pipe, as plain lines (default: ${DEFAULT-VALUE}).")
    Progress progress;

    /** The command line the result document records: the user's, also when this client runs a plan. */
    List<String> arguments(CommandSpec spec) {
        if (givenArguments != null) {
            return givenArguments;
        }
        return spec.commandLine().getParseResult() == null ? List.of()
                : List.copyOf(spec.commandLine().getParseResult().originalArgs());
    }

    /** What goes to stdout. */
    enum Format {
        TEXT, JSON, CSV, NDJSON;

        @Override
        public String toString() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    enum Progress {
        AUTO, ALWAYS, NEVER;

        @Override
        public String toString() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    List<Threshold> thresholds(CommandSpec spec) {
        List<Threshold> list = new ArrayList<>();
        for (String t : thresholds) {
            try {
                list.add(Threshold.parse(t));
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), Converters.oneLine(e.getMessage()));
            }
        }
        return list;
    }

    /**
     * The progress line, or null for none. auto: only when stderr is a terminal (stdout may be a file: the
     * line goes to stderr); rewritten in place unless {@code TERM=dumb}; always: plain lines where stderr is
     * not a terminal (no escape sequence in a log file).
     */
    ProgressLine progressLine(java.io.PrintWriter err, int combinations) {
        if (progress == Progress.NEVER) {
            return null;
        }
        boolean terminal = Tty.stderr();
        if (!terminal && progress == Progress.AUTO) {
            return null;
        }
        return new ProgressLine(err, combinations, terminal && !Tty.dumb(), terminal ? Tty.stderrWidth() : 0);
    }

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

        /**
         * The error count past which the FAIL verdict is certain while the run goes on, so the engine may
         * stop it: the count itself, or for a percentage the share of every message a count-based run
         * will send; -1 (never) for a percentage of a time-based run, whose total is not known ahead.
         */
        long budget(io.nbench.load.LoadSpec spec) {
            if (count >= 0) {
                return count;
            }
            if (spec.timeBased()) {
                return -1;
            }
            return (long) Math.floor(planned(spec) * percent / 100.0);
        }

        private static long planned(io.nbench.load.LoadSpec spec) {
            return spec.messagesPerIteration() * (spec.warmup() + spec.iterations());
        }

        /**
         * How the engine names this limit when it stops a run over it: {@code given} (the option as typed),
         * and for a percentage the count it allows of the messages planned.
         */
        String describeBudget(String given, io.nbench.load.LoadSpec spec) {
            long budget = budget(spec);
            return percent >= 0 && budget >= 0 ? given + " (" + budget + " of the "
                    + io.nbench.report.Units.count(planned(spec)) + " messages planned)" : given;
        }

        /** The FAIL reason for {@code errors} of {@code attempts} over this limit ({@code given} as typed). */
        String failure(long errors, long attempts, String given) {
            return percent >= 0
                    ? errors + " errors, " + percentOf(errors, attempts) + " of " + attempts + " messages, > --max-errors "
                            + given
                    : errors + " errors > --max-errors " + given;
        }

        /** {@code errors} as a percentage of {@code attempts}, to as many digits as a small share needs: 12.5%, 0.013%. */
        static String percentOf(long errors, long attempts) {
            double p = attempts == 0 ? 0 : errors * 100.0 / attempts;
            return new java.math.BigDecimal(p).round(new java.math.MathContext(3)).stripTrailingZeros().toPlainString() + "%";
        }

        boolean exceeded(long errors, long attempts) {
            if (count >= 0) {
                return errors > count;
            }
            return attempts > 0 && errors * 100.0 / attempts > percent;
        }
    }
}
