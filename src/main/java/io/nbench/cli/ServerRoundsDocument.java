package io.nbench.cli;

import com.fasterxml.jackson.core.type.TypeReference;
import io.nbench.report.CombinationResult;
import io.nbench.report.SweepResult;
import io.nbench.report.json.CombinationDoc;
import io.nbench.report.json.IntervalDoc;
import io.nbench.report.json.ResultDoc;
import io.nbench.report.json.ResultDocument;
import io.nbench.report.json.ServerStatsDoc;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The document of one server's rounds joined ({@link ServerRounds}): built by the code that writes a client's,
 * with each run's per-second intervals and server figures carried over from the document its client handed
 * over, renumbered as the joined iterations are and put on the first run's clock.
 */
final class ServerRoundsDocument {

    private ServerRoundsDocument() {
    }

    /**
     * The joined result's document: the environment, command line and options of the first round's document
     * ({@code warmup} and {@code iterations} as planned), each combination's intervals and server figures of
     * every run, renumbered as the iterations are and on the first run's clock.
     */
    static ResultDoc build(List<ServerRounds.Run> warmupRuns, List<ServerRounds.Run> rounds, SweepResult joined,
                            int warmups, int iterations) {
        ResultDoc base = rounds.get(0).document();
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
            for (ServerRounds.Run r : warmupRuns) {
                if (r.document() != null) {
                    seconds.addAll(intervals(combination(r.document(), name), offset, true, start));
                }
                offset += iterationsIn(r.result(), name, true);
            }
            offset = 0;
            for (ServerRounds.Run r : rounds) {
                int measured = iterationsIn(r.result(), name, false);
                if (r.document() == null) {
                    offset += measured;
                    continue;
                }
                CombinationDoc round = combination(r.document(), name);
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
                .runId(UUID.randomUUID().toString()).server(base.configuration().server()).intervals(intervals).serverStatsDocs(serverStats).doc(joined);
    }

    /** The iterations of the combination of that name in one run: all of a warmup run, the measured ones of a round. */
    private static int iterationsIn(SweepResult run, String name, boolean warmup) {
        return (int) run.combinations().stream().filter(c -> c.combination().name().equals(name))
                .flatMap(c -> c.run().iterations().stream()).filter(it -> warmup || !it.warmup()).count();
    }

    /** The combination of that name in a run's document, or null. */
    private static CombinationDoc combination(ResultDoc document, String name) {
        return document.combinations().stream().filter(c -> name.equals(c.name()))
                .findFirst().orElse(null);
    }

    /**
     * One run's intervals on the joined clock: numbered on from {@code offset}, a warmup run's marked warmup,
     * their times shifted by the run's start after {@code start}.
     */
    private static List<IntervalDoc> intervals(CombinationDoc combination, int offset, boolean warmup, long start) {
        if (combination == null || combination.intervals() == null) {
            return List.of();
        }
        long shift = (Instant.parse(combination.startTime() != null ? combination.startTime()
                : Instant.ofEpochMilli(start).toString()).toEpochMilli() - start) * 1_000_000L;
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
