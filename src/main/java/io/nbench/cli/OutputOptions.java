package io.nbench.cli;

import io.nbench.client.ClientSpec;
import io.nbench.client.MaxErrors;
import io.nbench.client.output.OutputRegistry;
import io.nbench.client.output.OutputSettings;
import io.nbench.report.threshold.Threshold;
import io.nbench.stats.Percentiles;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** The client's output and verdict options. */
final class OutputOptions {

    /** Set from a child's plan: the command line the user gave, which this client was not parsed from. */
    List<String> givenArguments;

    @ArgumentFiles.CommaList
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

    /** Its values and their help come from {@link OutputRegistry}: a new format needs no change here. */
    @Option(names = "--format", paramLabel = "${nbench.formats}", defaultValue = "${nbench.default-format}",
            converter = FormatName.class, completionCandidates = FormatNames.class,
            description = "What goes to stdout (default: ${DEFAULT-VALUE}). ${nbench.format-help}. Anything else goes "
                    + "to stderr.")
    String format;

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
                    + "METRIC: pN (any percentile: p50, p99.9), min, mean, max (latency: ns, us, ms or s, a unit "
                    + "required); throughput, rate-achieved (msg/s; k, m suffixes); errors (a count); "
                    + "error-rate (%%). OP: < <= > >= == !=. A breach exits 3 (default: none).")
    List<String> thresholds = new ArrayList<>();

    @Option(names = "--progress", paramLabel = "auto|always|never", defaultValue = "auto",
            description = "Status line on stderr every second; auto: only when stderr is a terminal, one line rewritten in place "
                    + "(plain lines with TERM=dumb); always: also into a file or pipe, as plain lines (default: ${DEFAULT-VALUE}).")
    OutputSettings.Progress progress;

    /**
     * Sets what {@code --format}'s help shows: the registry's format names ({@code ${nbench.formats}}), the
     * default ({@code ${nbench.default-format}}) and what each prints ({@code ${nbench.format-help}}).
     */
    static void describeFormats() {
        System.setProperty("nbench.formats", String.join("|", OutputRegistry.formatNames()));
        System.setProperty("nbench.default-format", OutputRegistry.formatNames().get(0));
        System.setProperty("nbench.format-help", OutputRegistry.formatHelp());
    }

    /** The command line the result document records: the user's, also when this client runs a plan. */
    List<String> arguments(CommandSpec spec) {
        if (givenArguments != null) {
            return givenArguments;
        }
        return OptionRecord.arguments(spec);
    }

    /** {@code --format}: one of the registry's names, in any case, given in lower case. */
    static final class FormatName implements picocli.CommandLine.ITypeConverter<String> {
        @Override
        public String convert(String value) {
            try {
                return OutputRegistry.format(value).name();
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    /** {@code --format}'s values for shell completion. */
    static final class FormatNames implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return OutputRegistry.formatNames().iterator();
        }
    }

    /** The settings the client's outputs are opened with. */
    OutputSettings settings() {
        return new OutputSettings(format, quiet, noHeader, out, hdrLog, hgrm, hostLabel, progress);
    }

    /** These options, typed ({@link ChildClient}); a value that does not parse is a usage error. */
    ClientSpec.Output clientSettings(CommandSpec spec) {
        return new ClientSpec.Output(settings(), percentiles(spec), maxErrors(spec), thresholds(spec));
    }

    /** Sets these options to a child client's settings, each as the command line spells it. */
    void set(ClientSpec.Output o) {
        OutputSettings f = o.files();
        format = f.format();
        quiet = f.quiet();
        noHeader = f.noHeader();
        out = f.out();
        hdrLog = f.hdrLog();
        hgrm = f.hgrm();
        hostLabel = f.hostLabel();
        progress = f.progress();
        percentiles = String.join(",", o.percentiles().stream().map(OutputOptions::plain).toList());
        maxErrors = o.maxErrors().given();
        thresholds = new ArrayList<>(o.thresholds().stream().map(Threshold::expression).toList());
    }

    /** {@code 25}, {@code 99.9}: a number as a person writes it, without a trailing {@code .0}. */
    static String plain(double value) {
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
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

    List<Double> percentiles(CommandSpec spec) {
        try {
            return Percentiles.parse(percentiles);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    MaxErrors maxErrors(CommandSpec spec) {
        try {
            return MaxErrors.parse(maxErrors);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }
}
