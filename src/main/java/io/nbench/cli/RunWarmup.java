package io.nbench.cli;

import io.nbench.client.ClientSpec;
import io.nbench.client.ExitCode;
import io.nbench.report.SweepResult;
import io.nbench.report.json.ResultDoc;
import io.nbench.units.Units;
import java.io.PrintWriter;
import java.io.Writer;
import java.util.List;

/**
 * {@code nbench run}'s warmup, not measured: this JVM's client JITs against whichever server it meets first (on a
 * busy machine its first response can take seconds), and each server, a JVM of its own, needs its own. So the
 * warmup runs in rounds, one closed-loop iteration per server per round, every other round reversed (A B, B A):
 * each server's last warmup iteration comes after the client has run against every server. Before the rounds
 * of a comparison, and before the capacity searches of {@code --find-rate} (whose first server would otherwise
 * meet the coldest client).
 */
final class RunWarmup {

    private RunWarmup() {
    }

    /** What a warmup run measured, with its server. */
    interface WarmedUp {
        void ran(RunServer server, SweepResult result, ResultDoc document);
    }

    /**
     * Warms the client up against every server of {@code usable}, {@code warmups} rounds; a server whose client
     * could not run is removed from {@code usable}. The worst exit code: {@link ExitCode#INTERRUPTED} or
     * {@link ExitCode#USAGE} when the warmup was cut short, and nothing more should run.
     *
     * @param warmedUp each warmup run's result, with its server
     */
    static int run(RunInRounds.Client client, RunFiles files, List<RunServer> running, List<RunServer> usable,
                   ClientSpec plan, int warmups, PrintWriter out, WarmedUp warmedUp) {
        return run(client, files, running, usable, plan, warmups, false, out, warmedUp);
    }

    /**
     * As above; {@code perRound}: a line per warmup round ({@code Warmup 1/2 (not measured): netty 1,523 msg/s, nio
     * 14,694 msg/s}, run's output without --verbose), else a heading and a line per server and round.
     */
    static int run(RunInRounds.Client client, RunFiles files, List<RunServer> running, List<RunServer> usable,
                   ClientSpec plan, int warmups, boolean perRound, PrintWriter out, WarmedUp warmedUp) {
        if (warmups <= 0) {
            return ExitCode.OK;
        }
        out.println();
        if (!perRound) {
            out.println("=== warmup: the client against every server, " + warmups + " round(s) of 1 iteration, "
                    + "not measured ===");
        }
        out.flush();
        int worst = ExitCode.OK;
        List<RunRounds.Turn> turns = RunRounds.schedule(running.size(), warmups, warmups);
        StringBuilder round = new StringBuilder();
        for (int i = 0; i < turns.size(); i++) {
            RunRounds.Turn turn = turns.get(i);
            boolean roundEnds = i == turns.size() - 1 || turns.get(i + 1).round() != turn.round();
            RunServer s = running.get(turn.server());
            if (!usable.contains(s)) {
                endRound(out, round, roundEnds);
                continue;
            }
            ClientSpec warm = files.roundFilesOf(s.transport(), -turn.round(), plan).withIterations(0, 1)
                    .withoutThresholds().withoutCapacitySearch();
            // The client's report of a warmup would read as a measurement: one line instead.
            int code = client.run(s, warm, false, new PrintWriter(Writer.nullWriter()), (r, document) -> {
                warmedUp.ran(s, r, document);
                if (perRound) {
                    round.append(round.length() == 0 ? "Warmup " + turn.round() + "/" + warmups + " (not measured): "
                            : ", ").append(s.transport().name()).append(' ').append(throughput(r));
                } else {
                    out.println("Warmup " + turn.round() + "/" + warmups + ", server " + s.transport().name() + ": "
                            + throughput(r));
                    out.flush();
                }
            });
            endRound(out, round, roundEnds);
            if (code == ExitCode.INTERRUPTED || code == ExitCode.USAGE) {
                return ExitCode.first(worst, code);
            } else if (code == ExitCode.COULD_NOT_RUN) {
                worst = ExitCode.first(worst, code); // the server is gone: it is not measured
                usable.remove(s);
            }
        }
        return worst;
    }

    /** A round's line, when the round ends and has one. */
    private static void endRound(PrintWriter out, StringBuilder round, boolean roundEnds) {
        if (roundEnds && round.length() > 0) {
            out.println(round);
            out.flush();
            round.setLength(0);
        }
    }

    /** A warmup run's throughput, the client and the server warming up. */
    private static String throughput(SweepResult r) {
        List<String> rates = r.combinations().stream().flatMap(c -> c.run().iterations().stream())
                .map(it -> Units.count(Math.round(it.messagesPerSecond()))).toList();
        return rates.isEmpty() ? "nothing measured" : String.join(", ", rates) + " msg/s";
    }
}
