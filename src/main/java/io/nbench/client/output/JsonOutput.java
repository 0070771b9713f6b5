package io.nbench.client.output;

import io.nbench.report.SweepResult;
import io.nbench.report.json.ResultDocument;
import java.util.List;

/** {@code --format json}: the result document on stdout once the run is over, and nothing else. */
final class JsonOutput extends MachineReadableOutput {

    JsonOutput(OutputContext context) {
        super(context);
    }

    @Override
    public void finish(SweepResult last, List<String> writeErrors) {
        context.out().println(ResultDocument.pretty(context.record().document().build(last)));
    }
}
