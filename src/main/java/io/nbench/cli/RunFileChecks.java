package io.nbench.cli;

import io.nbench.report.AtomicFiles;
import io.nbench.report.hdr.PercentileFiles;
import io.nbench.transport.Transport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** The files {@code nbench run} will write, checked before any server starts, so no run is lost to a typo. */
final class RunFileChecks {

    private RunFileChecks() {
    }

    /** Usage errors throw ParameterException; a file that cannot be written is {@link RunFiles.CannotWrite}. */
    static void check(CommandSpec spec, int forks, Path hdrLog, String hgrm, Path resultsDir, Path report,
                      List<Transport> chosen) throws RunFiles.CannotWrite {
        checkFileOptions(spec, forks, hdrLog, hgrm, chosen.size());
        String problem = checkWritable(hdrLog, resultsDir, chosen);
        if (problem == null && report != null) {
            try {
                AtomicFiles.checkWritable(report); // before any server starts, like every other file
            } catch (IOException e) {
                problem = "cannot write --report " + report + ": " + AtomicFiles.describe(e);
            }
        }
        if (problem != null) {
            throw new RunFiles.CannotWrite(problem);
        }
    }

    /** Usage errors of the file options, before any server starts. */
    private static void checkFileOptions(CommandSpec spec, int forks, Path hdrLog, String hgrm, int servers) {
        if (hgrm != null && servers > 1 && !hgrm.contains(PercentileFiles.PLACEHOLDER)) {
            throw new ParameterException(spec.commandLine(), "--hgrm " + hgrm + " names one file but nbench run "
                    + "measures " + servers + " servers: put " + PercentileFiles.PLACEHOLDER + " in it, e.g. lat-"
                    + PercentileFiles.PLACEHOLDER + ".hgrm (one file per server and combination)");
        }
        if ((hdrLog != null || hgrm != null) && forks > 1) {
            throw new ParameterException(spec.commandLine(), "--forks keeps each fork's result document only: leave "
                    + "out --hdr-log and --hgrm, or run without --forks");
        }
    }

    /** The directory and files run will write; the problem, or null. */
    private static String checkWritable(Path hdrLog, Path resultsDir, List<Transport> chosen) {
        Path current = hdrLog;
        String option = "--hdr-log";
        try {
            if (hdrLog != null) {
                AtomicFiles.checkWritable(hdrLog);
            }
            if (resultsDir != null) {
                option = "--results-dir";
                current = resultsDir;
                Files.createDirectories(resultsDir);
                for (Transport t : chosen) {
                    current = resultsDir.resolve(t.name() + ".json");
                    AtomicFiles.checkWritable(current);
                }
            }
            return null;
        } catch (IOException e) {
            return "cannot write " + option + " " + current + ": " + AtomicFiles.describe(e);
        }
    }
}
