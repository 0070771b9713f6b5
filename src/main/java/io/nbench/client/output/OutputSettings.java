package io.nbench.client.output;

import java.nio.file.Path;
import java.util.Locale;

/**
 * What the user chose to get out of a run.
 *
 * @param format    the name of what goes to stdout, one of {@link OutputRegistry#formatNames()}
 * @param quiet     text: only the header and the summary, not each iteration
 * @param noHeader  csv: no header line (appending to a file)
 * @param out       the result document's file, or null
 * @param hdrLog    the HdrHistogram interval log's file, or null
 * @param hgrm      the percentile files' name template, or null
 * @param hostLabel this host's name in the results, or null for the machine's host name
 * @param progress  when to show the progress line
 */
public record OutputSettings(String format, boolean quiet, boolean noHeader, Path out, Path hdrLog, String hgrm,
                             String hostLabel, Progress progress) {

    /**
     * Whether stdout gets a human-readable line per iteration (the default format, text, without
     * {@code --quiet}): other per-iteration lines, such as the server's figures, may then follow each one.
     */
    public boolean iterationLinesOnStdout() {
        return !quiet && textOnStdout();
    }

    /** Whether stdout is for people (the default format, text), so a line of progress may go there. */
    public boolean textOnStdout() {
        return OutputRegistry.format(format).name().equals(OutputRegistry.formatNames().get(0));
    }

    /** The progress line on stderr: only on a terminal, always, or never. */
    public enum Progress {
        AUTO, ALWAYS, NEVER;

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }
}
