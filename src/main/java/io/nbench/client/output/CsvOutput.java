package io.nbench.client.output;

import io.nbench.load.RunListener;
import io.nbench.report.csv.CsvReport;

/** {@code --format csv}: a header line (unless {@code --no-header}), then a row per iteration as it ends. */
final class CsvOutput extends MachineReadableOutput {

    private final CsvReport csv;

    CsvOutput(OutputContext context) {
        super(context);
        this.csv = new CsvReport(context.out(), context.keys(), context.record().runId(), context.record().host());
        if (!context.settings().noHeader()) {
            csv.header();
        }
    }

    @Override
    public RunListener start(CombinationStart start) {
        return csv.forCombination(start.combination());
    }
}
