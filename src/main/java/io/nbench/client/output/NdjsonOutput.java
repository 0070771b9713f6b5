package io.nbench.client.output;

import io.nbench.report.SweepResult;
import io.nbench.report.json.IntervalDoc;
import io.nbench.report.json.NdjsonStream;
import java.util.List;

/** {@code --format ndjson}: a JSON line per second as it ends, then the result document on one line. */
final class NdjsonOutput extends MachineReadableOutput {

    private final NdjsonStream stream;

    NdjsonOutput(OutputContext context) {
        super(context);
        this.stream = new NdjsonStream(context.out());
    }

    @Override
    public void interval(IntervalDoc figures) {
        stream.interval(figures);
    }

    @Override
    public void finish(SweepResult last, List<String> writeErrors) {
        stream.last(context.record().document().build(last));
    }
}
