package io.nbench.client.output;

import io.nbench.load.RunListener;
import io.nbench.report.CombinationResult;
import io.nbench.report.RunWarnings;
import io.nbench.report.csv.CsvReport;

/** {@code --format csv}: a header line (unless {@code --no-header}), then a row per iteration as it ends. */
final class CsvOutput extends MachineReadableOutput {

    private final CsvReport csv;

    CsvOutput(OutputContext context) {
        super(context);
        this.csv = new CsvReport(context.out(), context.keys(), context.record().runId(), context.record().host(),
                context.record().server());
        if (!context.settings().noHeader()) {
            csv.header();
        }
    }

    /** The combination in progress, whose last row waits for its summary's warnings. */
    private CsvReport.Rows rows;

    @Override
    public RunListener start(CombinationStart start) {
        rows = csv.forCombination(start.combination(), start.load().iterations());
        return rows;
    }

    @Override
    public void summary(CombinationResult r) {
        if (rows != null) {
            rows.finish(RunWarnings.of(r.run().summary(), r.run().spec().pacing()));
            rows = null;
        }
        super.summary(r);
    }
}
