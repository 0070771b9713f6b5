package io.nbench.client.output;

import io.nbench.load.RunListener;
import io.nbench.report.ProgressLine;
import io.nbench.report.Tty;

/**
 * {@code --progress}: a status line on stderr every second. auto: only when stderr is a terminal (stdout may
 * be a file: the line goes to stderr); rewritten in place unless {@code TERM=dumb}; always: plain lines where
 * stderr is not a terminal (no escape sequence in a log file).
 */
final class ProgressOutput implements Output {

    private final ProgressLine line;

    private ProgressOutput(ProgressLine line) {
        this.line = line;
    }

    static Output open(OutputContext context) {
        OutputSettings.Progress mode = context.settings().progress();
        boolean terminal = Tty.stderr();
        if (mode == OutputSettings.Progress.NEVER || !terminal && mode == OutputSettings.Progress.AUTO) {
            return null;
        }
        return new ProgressOutput(new ProgressLine(context.err(), context.combinations(), terminal && !Tty.dumb(),
                terminal ? Tty.stderrWidth() : 0, context.plannedAfterNanos()));
    }

    @Override
    public RunListener start(CombinationStart start) {
        return line.forCombination(start.combination(), start.number(), start.load());
    }
}
