package io.nbench.client.output;

import io.nbench.report.AtomicFiles;
import java.io.IOException;
import java.nio.file.Path;

/** A result file cannot be written: exit 1 with this one-line message naming the option and the file. */
public final class CannotWrite extends Exception {
    private static final long serialVersionUID = 1L;

    public CannotWrite(String option, Path file, IOException cause) {
        super("cannot write " + option + " " + file + ": " + AtomicFiles.describe(cause), cause);
    }

    /** Fails now if {@code file} could not be written at the end of the run. */
    static void check(String option, Path file) throws CannotWrite {
        try {
            AtomicFiles.checkWritable(file);
        } catch (IOException e) {
            throw new CannotWrite(option, file, e);
        }
    }
}
