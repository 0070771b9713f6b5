package io.nbench.client.output;

import io.nbench.load.RunListener;
import io.nbench.report.SweepResult;
import io.nbench.report.hdr.HdrIntervalLog;
import java.io.IOException;
import java.util.List;

/** {@code --hdr-log}: an HdrHistogram interval log, one interval per second, completed when the run ends. */
final class HdrLogOutput implements Output {

    private final OutputContext context;
    private final HdrIntervalLog log;
    private boolean closed;

    private HdrLogOutput(OutputContext context, HdrIntervalLog log) {
        this.context = context;
        this.log = log;
    }

    static Output open(OutputContext context) throws CannotWrite {
        try {
            return new HdrLogOutput(context, HdrIntervalLog.open(context.settings().hdrLog()));
        } catch (IOException e) {
            throw new CannotWrite("--hdr-log", context.settings().hdrLog(), e);
        }
    }

    @Override
    public RunListener start(CombinationStart start) {
        return log.forCombination(start.combination());
    }

    @Override
    public void writeFiles(SweepResult result, List<String> writeErrors) {
        closed = true;
        try {
            log.close();
        } catch (IOException e) {
            writeErrors.add(new CannotWrite("--hdr-log", context.settings().hdrLog(), e).getMessage());
        }
    }

    @Override
    public void abandon() {
        if (!closed) {
            log.abandon();
        }
    }
}
