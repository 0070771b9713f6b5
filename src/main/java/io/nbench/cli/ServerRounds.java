package io.nbench.cli;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nbench.client.ClientPlan;
import io.nbench.client.ResolvedTransport;
import io.nbench.client.Verdict;
import io.nbench.load.AbortCause;
import io.nbench.load.LoadSpec;
import io.nbench.load.RunResult;
import io.nbench.report.CombinationResult;
import io.nbench.report.SweepResult;
import io.nbench.report.json.CombinationDoc;
import io.nbench.report.json.IntervalDoc;
import io.nbench.report.json.ResultDoc;
import io.nbench.report.json.ResultDocReader;
import io.nbench.report.json.ResultDocument;
import io.nbench.report.json.ServerStatsDoc;
import io.nbench.stats.DrainResult;
import io.nbench.stats.ErrorCounts;
import io.nbench.stats.IterationResult;
import io.nbench.stats.Summary;
import io.nbench.transport.ErrorKind;
import io.nbench.transport.Transport;
import io.nbench.transport.TransportRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * One server's client runs in {@code nbench run}: its warmup runs (the warmup rounds before the first measured
 * one) and one measured run per round, joined into one result as if one client had run them back to back: the
 * warmup runs' iterations as the warmup, every round's measured iterations in the order they ran (numbered
 * on), the summary over all of them, and the verdict ({@code --max-errors}, {@code --threshold}) judged again
 * on the whole, by the client's own {@link Verdict}. Its document is built by the code that writes a client's,
 * with each round's per-second intervals and server figures carried over from the round's document,
 * renumbered and put on the first run's clock.
 *
 * <p>Typed results in, a document out: issue 26 will have {@code run} keep typed results throughout; this is
 * where they are joined.
 */
final class ServerRounds {

    /** A client run and the document it wrote (null when it wrote none). */
    private record Run(SweepResult result, Path document) {
    }

    private final Transport server;
    private final List<Run> warmupRuns = new ArrayList<>();
    private final List<Run> rounds = new ArrayList<>();

    ServerRounds(Transport server) {
        this.server = server;
    }

    Transport server() {
        return server;
    }

    /** A warmup run (its iterations, measured as far as that client knew, are this server's warmup). */
    void warmedUp(SweepResult result, Path document) {
        warmupRuns.add(new Run(result, Files.isRegularFile(document) ? document : null));
    }

    void measured(SweepResult result, Path document) {
        rounds.add(new Run(result, Files.isRegularFile(document) ? document : null));
    }

    /** How many rounds measured this server. */
    int roundsMeasured() {
        return rounds.size();
    }

    /**
     * Every run as one result, judged again on the whole.
     *
     * @param warmups    the warmup iterations planned ({@code --warmup}), for the document's load
     * @param iterations the measured iterations planned ({@code --iterations})
     * @param cut        the rounds were stopped before all had run (SIGINT)
     */
    SweepResult joined(Verdict verdict, int warmups, int iterations, boolean cut) {
        SweepResult first = rounds.get(0).result();
        Map<String, List<CombinationResult>> byName = new LinkedHashMap<>();
        String error = null;
        for (Run r : warmupRuns) {
            error = error != null ? error : r.result().error();
        }
        for (Run r : rounds) {
            for (CombinationResult c : r.result().combinations()) {
                byName.computeIfAbsent(c.combination().name(), k -> new ArrayList<>()).add(c);
            }
            error = error != null ? error : r.result().error();
        }
        List<CombinationResult> joined = new ArrayList<>();
        byName.forEach((name, parts) -> joined.add(joined(verdict, warmupOf(name), parts, warmups, iterations)));
        return Verdict.sweep(first.target(), first.keys(), joined, error, cut);
    }

    private List<CombinationResult> warmupOf(String name) {
        return warmupRuns.stream().flatMap(r -> r.result().combinations().stream())
                .filter(c -> c.combination().name().equals(name)).toList();
    }

    private static CombinationResult joined(Verdict verdict, List<CombinationResult> warm,
                                            List<CombinationResult> parts, int warmups, int iterations) {
        List<CombinationResult> all = new ArrayList<>(warm);
        all.addAll(parts);
        List<IterationResult> its = new ArrayList<>();
        for (CombinationResult c : warm) {
            for (IterationResult it : c.run().iterations()) {
                its.add(renumbered(it, its.size() + 1, true));
            }
        }
        int measured = 0;
        for (CombinationResult c : parts) {
            for (IterationResult it : c.run().iterations()) {
                if (!it.warmup()) {
                    its.add(renumbered(it, ++measured, false));
                }
            }
        }
        CombinationResult base = parts.get(0);
        LoadSpec planned = base.spec();
        LoadSpec.Timing t = planned.timing();
        LoadSpec spec = new LoadSpec(planned.shape(), planned.message(), new LoadSpec.Timing(t.msgsPerThread(),
                t.iterationNanos(), warmups, iterations, t.timeoutNanos(), t.connectTimeoutNanos()),
                planned.verification());
        ErrorCounts.Snapshot errors = ErrorCounts.Snapshot.ZERO;
        long late = 0;
        long reconnects = 0;
        Map<ErrorKind, String> firstErrors = new LinkedHashMap<>();
        String abortReason = null;
        AbortCause abortCause = null;
        boolean interrupted = false;
        DrainResult drain = null;
        for (CombinationResult c : all) {
            RunResult r = c.run();
            if (parts.contains(c)) {
                drain = DrainResult.plus(drain, r.drain()); // each measured round's own drain, in no iteration
            }
            errors = errors.plus(r.errors());
            late += r.lateResponses();
            reconnects += r.reconnects();
            r.firstErrors().forEach(firstErrors::putIfAbsent);
            if (abortReason == null && r.abortReason() != null) {
                abortReason = r.abortReason();
                abortCause = r.abortCause();
            }
            interrupted |= r.interrupted();
        }
        RunResult run = new RunResult(spec, its, new Summary(its, spec.percentiles()), errors, late, firstErrors,
                abortReason, abortCause, reconnects, interrupted, all.get(0).run().startEpochMillis(), drain);
        TransportRegistry registry = TransportRegistry.load();
        Transport transport = registry.get(base.transport());
        ClientPlan.Step step = new ClientPlan.Step(base.combination(), new ResolvedTransport(transport,
                registry.resolveOptions(transport, base.transportOptions())), spec);
        return verdict.judge(step, run, base.transportConfig());
    }

    private static IterationResult renumbered(IterationResult it, int index, boolean warmup) {
        return new IterationResult(index, warmup, it.messages(), it.wallNanos(), it.payloadBytes(), it.latency(),
                it.errors(), it.clamped(), it.partial(), it.resources(), it.openLoop(), it.connectLatency());
    }

    /**
     * The joined result's document: the environment, command line and options of the first round's document
     * ({@code warmup} and {@code iterations} as planned), each combination's intervals and server figures of
     * every run, renumbered as the iterations are and on the first run's clock.
     */
    ObjectNode document(SweepResult joined, int warmups, int iterations) throws IOException {
        ResultDoc base = read(rounds.get(0).document());
        Map<String, Object> options = ResultDocument.MAPPER.convertValue(base.configuration().options(),
                new TypeReference<LinkedHashMap<String, Object>>() { });
        options.put("warmup", warmups);
        options.put("iterations", iterations);
        Map<String, List<IntervalDoc>> intervals = new LinkedHashMap<>();
        Map<String, ServerStatsDoc> serverStats = new LinkedHashMap<>();
        for (CombinationResult c : joined.combinations()) {
            String name = c.combination().name();
            long start = c.run().startEpochMillis();
            List<IntervalDoc> seconds = new ArrayList<>();
            int offset = 0;
            for (Run r : warmupRuns) {
                if (r.document() != null) {
                    seconds.addAll(intervals(combination(read(r.document()), name), offset, true, start));
                }
                offset += iterationsIn(r.result(), name, true);
            }
            offset = 0;
            for (Run r : rounds) {
                int measured = iterationsIn(r.result(), name, false);
                if (r.document() == null) {
                    offset += measured;
                    continue;
                }
                CombinationDoc round = combination(read(r.document()), name);
                seconds.addAll(intervals(round, offset, false, start));
                if (round != null && round.serverStats() != null) {
                    serverStats.put(name, append(serverStats.get(name), round.serverStats(), offset));
                }
                offset += measured;
            }
            if (!seconds.isEmpty()) {
                intervals.put(name, seconds);
            }
        }
        return new ResultDocument(base.environment(), base.configuration().arguments(), options)
                .runId(UUID.randomUUID().toString()).intervals(intervals).serverStatsDocs(serverStats).build(joined);
    }

    private static ResultDoc read(Path document) throws IOException {
        return ResultDocReader.document(ResultDocument.MAPPER.readTree(document.toFile()));
    }

    /** The iterations of the combination of that name in one run: all of a warmup run, the measured ones of a round. */
    private static int iterationsIn(SweepResult run, String name, boolean warmup) {
        return (int) run.combinations().stream().filter(c -> c.combination().name().equals(name))
                .flatMap(c -> c.run().iterations().stream()).filter(it -> warmup || !it.warmup()).count();
    }

    /** The combination of that name in a document, or null. */
    private static CombinationDoc combination(ResultDoc document, String name) {
        return document.combinations().stream().filter(c -> name.equals(c.name())).findFirst().orElse(null);
    }

    /**
     * One run's intervals on the joined clock: numbered on from {@code offset}, a warmup run's marked warmup,
     * their times shifted by the run's start after {@code start}.
     */
    private static List<IntervalDoc> intervals(CombinationDoc combination, int offset, boolean warmup, long start) {
        if (combination == null || combination.intervals() == null) {
            return List.of();
        }
        long shift = (java.time.Instant.parse(combination.startTime() != null ? combination.startTime()
                : java.time.Instant.ofEpochMilli(start).toString()).toEpochMilli() - start) * 1_000_000L;
        return combination.intervals().stream().map(i -> i.joined(offset, shift, warmup)).toList();
    }

    /**
     * A round's server figures added to the joined ones (null before the first round that has any): iteration
     * indices numbered on, the first error kept.
     */
    private static ServerStatsDoc append(ServerStatsDoc joined, ServerStatsDoc round, int offset) {
        List<ServerStatsDoc.Iteration> its = new ArrayList<>(joined == null ? List.of() : joined.iterations());
        round.iterations().forEach(s -> its.add(s.renumbered(s.index() + offset)));
        String error = joined != null && joined.error() != null ? joined.error() : round.error();
        return new ServerStatsDoc(joined == null ? round.monitor() : joined.monitor(), error, its);
    }
}
