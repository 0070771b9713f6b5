package io.nbench.cli;

import picocli.CommandLine.Option;

/**
 * {@code --max-input}: the most nbench reads of one result document (compare, report). Beyond it a document is
 * refused in one line, before it is read when it is a file, and once past the limit when it is a pipe or a
 * device, so neither a huge file nor {@code /dev/zero} can exhaust the memory.
 */
final class InputLimitOption {

    /** The default: io.nbench.report.json.ResultReader.DEFAULT_MAX_BYTES, which explains the figure. */
    @Option(names = "--max-input", paramLabel = "SIZE", defaultValue = "256m", converter = Converters.Size.class,
            description = "Refuse a result document larger than SIZE (default: ${DEFAULT-VALUE}; a pipe or device "
                    + "is read up to SIZE, below 2g). Reading one takes about ten times its size in heap: raise -Xmx "
                    + "with it (JAVA_TOOL_OPTIONS).")
    int maxInput;
}
