package io.nbench.client.output;

import io.nbench.report.CombinationResult;
import io.nbench.report.SweepResult;
import io.nbench.report.hdr.PercentileFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** {@code --hgrm}: each combination's percentile distribution, for HdrHistogram's plotter, after the run. */
final class HgrmOutput implements Output {

    private final PercentileFiles files;

    private HgrmOutput(PercentileFiles files) {
        this.files = files;
    }

    /** A template naming one file for a sweep is a usage error; a directory that cannot take it, exit 1. */
    static Output open(OutputContext context) throws CannotWrite {
        String template = context.settings().hgrm();
        PercentileFiles files = new PercentileFiles(template, context.combinations());
        CannotWrite.check("--hgrm", Path.of(template.replace(PercentileFiles.PLACEHOLDER, "x")));
        return new HgrmOutput(files);
    }

    @Override
    public void writeFiles(SweepResult result, List<String> writeErrors) {
        for (CombinationResult c : result.combinations()) {
            try {
                files.write(c.combination(), c.run().summary().merged());
            } catch (IOException e) {
                writeErrors.add(new CannotWrite("--hgrm", files.pathFor(c.combination()), e).getMessage());
            }
        }
    }
}
