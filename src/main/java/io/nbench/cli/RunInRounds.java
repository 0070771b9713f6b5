package io.nbench.cli;

import io.nbench.client.ClientSpec;
import io.nbench.client.ExitCode;
import io.nbench.client.Verdict;
import io.nbench.report.CombinationResult;
import io.nbench.report.ProgressLine;
import io.nbench.report.Status;
import io.nbench.report.SweepResult;
import io.nbench.report.TextReport;
import io.nbench.report.json.ResultDoc;
import io.nbench.units.Units;
import java.io.PrintWriter;
import java.io.Writer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code nbench run}'s measurement once its servers run: the client warmed up against every server, then the
 * servers measured in rounds ({@link RunRounds}), each server's rounds joined into one result and document
 * ({@link ServerRounds}), so the comparison does not depend on the order of {@code --servers}
 * (docs/measurement.md). Each client run is one of {@code nbench client} in this JVM, which {@link Client}
 * starts with run's -O routing and monitor settings.
 */
final class RunInRounds {

    /** Runs {@code plan}'s client against {@code server}; its exit code, its result to {@code listener}. */
    interface Client {
        int run(RunServer server, ClientSpec plan, boolean withStats, PrintWriter out,
                ChildClientListener listener);
    }

    private final Client client;
    private final RunFiles files;
    private final Verdict verdict;
    /** Set on SIGINT/SIGTERM: no further round starts. */
    private final AtomicBoolean stopRequested;
    /** Each round's client reads its server's figures from the server's monitor (not the warmup's). */
    private final boolean withStats;
    /** {@code --verbose}: each round's client report in full and each server's metrics, else a line each. */
    private final boolean verbose;
    private final PrintWriter out;
    private final PrintWriter err;

    RunInRounds(Client client, RunFiles files, Verdict verdict, AtomicBoolean stopRequested, boolean withStats,
                boolean verbose, PrintWriter out, PrintWriter err) {
        this.client = client;
        this.files = files;
        this.verdict = verdict;
        this.stopRequested = stopRequested;
        this.withStats = withStats;
        this.verbose = verbose;
        this.out = out;
        this.err = err;
    }

    /**
     * The client warmed up against every server, then every server measured in rounds ({@link RunRounds}),
     * each server's rounds joined into one result ({@link ServerRounds}) and document. The worst exit code of
     * the joined results, of a client that could not run, and of an interruption.
     */
    int measure(List<RunServer> running, ClientSpec plan, int warmups, int iterations, int roundCount) {
        int worst = ExitCode.OK;
        Map<RunServer, ServerRounds> measured = new LinkedHashMap<>();
        running.forEach(s -> measured.put(s, new ServerRounds(s.transport())));
        List<RunServer> usable = new ArrayList<>(running);
        int warm = RunWarmup.run(client, files, running, usable, plan, warmups, !verbose, out,
                (s, r, document) -> measured.get(s).warmedUp(r, document));
        worst = ExitCode.first(worst, warm);
        boolean stop = warm == ExitCode.INTERRUPTED || warm == ExitCode.USAGE;
        List<RunRounds.Turn> turns = RunRounds.schedule(running.size(), roundCount, iterations);
        boolean cut = false;
        boolean announced = false;
        RoundsLeft left = new RoundsLeft(turns, plan.load().iterationTime());
        for (int index = 0; index < turns.size(); index++) {
            RunRounds.Turn turn = turns.get(index);
            RunServer s = running.get(turn.server());
            if (stop || stopRequested.get()) {
                cut = true;
                break;
            }
            if (!usable.contains(s)) {
                continue;
            }
            if (verbose) {
                out.println();
                out.println("=== round " + turn.round() + "/" + roundCount + ": server " + s.transport().name()
                        + " ===");
            } else if (!announced) {
                out.println();
                out.println("=== " + roundCount + " round(s), every server in each" + (left.total() >= 1_000_000_000L ? ", "
                        + ProgressLine.clock(left.total()) + " of iterations" : "")
                        + " (--verbose: each round's report) ===");
            }
            out.flush();
            ClientSpec round = files.roundFilesOf(s.transport(), turn.round(), plan)
                    .withIterations(0, turn.iterations());
            long after = left.after(index);
            long started = System.nanoTime();
            int code = client.run(s, round, withStats,
                    verbose ? out : !announced ? HeaderOnly.to(out) : new PrintWriter(Writer.nullWriter()),
                    new ChildClientListener() {
                        @Override
                        public void ran(SweepResult r, ResultDoc document) {
                            measured.get(s).measured(r, document);
                            if (!verbose) {
                                out.println(RoundLine.of(turn.round(), roundCount, s.transport().name(), r));
                                out.flush();
                            }
                        }

                        @Override
                        public long plannedAfterNanos() {
                            return after;
                        }
                    });
            announced = true;
            left.ran(turn.iterations(), System.nanoTime() - started);
            if (code == ExitCode.INTERRUPTED || code == ExitCode.USAGE) {
                worst = ExitCode.first(worst, code);
                stop = true;
            } else if (code == ExitCode.COULD_NOT_RUN) {
                worst = ExitCode.first(worst, code); // the server is gone: it is not measured again
                usable.remove(s);
            }
        }
        if (stopRequested.get()) {
            cut = true;
            worst = ExitCode.first(worst, ExitCode.INTERRUPTED); // also when it came between two rounds
        }
        RunServer.stopAll(running, out, verbose);
        for (ServerRounds sr : measured.values()) {
            worst = ExitCode.first(worst, join(sr, warmups, iterations, cut));
        }
        return worst;
    }

    /** One server's rounds joined: its document and --hgrm written, its verdict over every round printed. */
    private int join(ServerRounds sr, int warmups, int iterations, boolean cut) {
        if (sr.roundsMeasured() == 0) {
            return ExitCode.OK; // never measured: its start or warmup already said why
        }
        SweepResult joined = sr.joined(verdict, warmups, iterations, cut);
        RunFiles.Document document = new RunFiles.Document(sr.server().name() + ".json",
                sr.document(joined, warmups, iterations), null);
        int code = ExitCode.first(joined.exitCode(), files.writeHgrm(sr.server(), joined, err));
        long its = joined.combinations().stream().flatMap(c -> c.run().iterations().stream())
                .filter(it -> !it.warmup()).count();
        // Each round's client summed up its own round; this is the server's summary over every round.
        out.println();
        out.println("=== server " + sr.server().name() + ": " + its + " measured iteration(s) in " + sr.roundsMeasured()
                + " round(s) ===");
        for (CombinationResult c : joined.combinations()) {
            if (joined.combinations().size() > 1) {
                out.println("Combination: " + c.combination().name());
            }
            TextReport text = new TextReport(out, c.spec(), false);
            if (verbose) {
                text.summary(c.run());
            } else {
                text.brief(c.run()); // the comparison below has the latencies and CPU
            }
            c.thresholds().forEach(o -> out.println("Threshold " + (o.passed() ? "passed: " : "BREACHED: ")
                    + o.describe()));
        }
        List<String> reasons = joined.combinations().stream().flatMap(c -> c.reasons().stream()).distinct().toList();
        // As a client alone says it: NO_DATA with its own exit code, which is neither a pass nor a fail.
        out.println("Result: " + joined.status() + (joined.status() == Status.NO_DATA
                ? " (exit code " + joined.exitCode() + ")" : "") + (reasons.isEmpty() ? "" : ": "
                + String.join("; ", reasons)));
        files.measured(sr.server(), List.of(document));
        return code;
    }
}
