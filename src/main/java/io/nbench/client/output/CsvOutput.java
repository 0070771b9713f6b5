package io.nbench.client.output;

import io.nbench.client.capacity.CapacitySearch;
import io.nbench.load.RunListener;
import io.nbench.report.CombinationResult;
import io.nbench.report.RunWarnings;
import io.nbench.report.csv.CsvReport;

/** {@code --format csv}: a header line (unless {@code --no-header}), then a row per iteration as it ends. */
final class CsvOutput extends MachineReadableOutput {

    private final CsvReport csv;
    /** Whether each open-loop combination is a point of a curve, whose cause its last row carries. */
    private final boolean curve;

    CsvOutput(OutputContext context) {
        super(context);
        this.curve = context.curve();
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
            boolean point = curve && r.run().spec().openLoop();
            rows.finish(point ? CapacitySearch.measured(r).cause().label() : "",
                    RunWarnings.of(r.run().summary(), r.run().spec().pacing()));
            rows = null;
        }
        super.summary(r);
    }
}
