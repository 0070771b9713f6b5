package io.nbench.client.output;

import io.nbench.report.AtomicFiles;
import io.nbench.report.SweepResult;
import io.nbench.report.json.ResultDocument;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/** {@code --out}: the full result document, written atomically once the run is over. */
final class ResultFileOutput implements Output {

    private final OutputContext context;
    private final Path file;

    private ResultFileOutput(OutputContext context, Path file) {
        this.context = context;
        this.file = file;
    }

    static Output open(OutputContext context) throws CannotWrite {
        Path file = context.settings().out();
        CannotWrite.check("--out", file);
        return new ResultFileOutput(context, file);
    }

    @Override
    public void writeFiles(SweepResult result, List<String> writeErrors) {
        try {
            String json = ResultDocument.pretty(context.record().document().build(result)) + "\n";
            AtomicFiles.write(file, json.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            writeErrors.add(new CannotWrite("--out", file, e).getMessage());
        }
    }
}
