package io.nbench.cli;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nbench.report.CombinationResult;
import io.nbench.report.SweepResult;
import io.nbench.report.json.ResultDocument;
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
    static ObjectNode build(List<ServerRounds.Run> warmupRuns, List<ServerRounds.Run> rounds, SweepResult joined,
                            int warmups, int iterations) {
        JsonNode base = rounds.get(0).document();
        Map<String, String> environment = ResultDocument.MAPPER.convertValue(base.path("environment"),
                new TypeReference<LinkedHashMap<String, String>>() { });
        List<String> arguments = ResultDocument.MAPPER.convertValue(base.path("configuration").path("arguments"),
                new TypeReference<List<String>>() { });
        Map<String, Object> options = ResultDocument.MAPPER.convertValue(base.path("configuration").path("options"),
                new TypeReference<LinkedHashMap<String, Object>>() { });
        options.put("warmup", warmups);
        options.put("iterations", iterations);
        Map<String, List<JsonNode>> intervals = new LinkedHashMap<>();
        Map<String, ObjectNode> serverStats = new LinkedHashMap<>();
        for (CombinationResult c : joined.combinations()) {
            String name = c.combination().name();
            long start = c.run().startEpochMillis();
            List<JsonNode> seconds = new ArrayList<>();
            int offset = 0;
            for (ServerRounds.Run r : warmupRuns) {
                seconds.addAll(intervals(combination(r.document(), name), offset, true, start));
                offset += iterationsIn(r.result(), name, true);
            }
            offset = 0;
            for (ServerRounds.Run r : rounds) {
                int measured = iterationsIn(r.result(), name, false);
                JsonNode round = combination(r.document(), name);
                seconds.addAll(intervals(round, offset, false, start));
                JsonNode stats = round.path("serverStats");
                if (stats.isObject()) {
                    ObjectNode joinedStats = serverStats.get(name);
                    if (joinedStats == null) {
                        joinedStats = stats.deepCopy();
                        joinedStats.putNull("error");
                        joinedStats.putArray("iterations");
                        serverStats.put(name, joinedStats);
                    }
                    append(joinedStats, stats, offset);
                }
                offset += measured;
            }
            if (!seconds.isEmpty()) {
                intervals.put(name, seconds);
            }
        }
        return new ResultDocument(environment, arguments, options).runId(UUID.randomUUID().toString())
                .intervals(intervals).serverStats(serverStats).build(joined);
    }

    /** The iterations of the combination of that name in one run: all of a warmup run, the measured ones of a round. */
    private static int iterationsIn(SweepResult run, String name, boolean warmup) {
        return (int) run.combinations().stream().filter(c -> c.combination().name().equals(name))
                .flatMap(c -> c.run().iterations().stream()).filter(it -> warmup || !it.warmup()).count();
    }

    /** The combination of that name in a document, or an empty node. */
    private static JsonNode combination(JsonNode document, String name) {
        for (JsonNode c : document.path("combinations")) {
            if (name.equals(c.path("name").asText())) {
                return c;
            }
        }
        return ResultDocument.MAPPER.createObjectNode();
    }

    /**
     * One run's intervals on the joined clock: numbered on from {@code offset}, a warmup run's marked warmup,
     * their times shifted by the run's start after {@code start}.
     */
    private static List<JsonNode> intervals(JsonNode combination, int offset, boolean warmup, long start) {
        long shift = (Instant.parse(combination.path("startTime").asText(
                Instant.ofEpochMilli(start).toString())).toEpochMilli() - start) * 1_000_000L;
        List<JsonNode> list = new ArrayList<>();
        for (JsonNode i : combination.path("intervals")) {
            ObjectNode copy = i.deepCopy();
            copy.put("warmup", warmup || i.path("warmup").asBoolean());
            copy.put("iteration", i.path("iteration").asInt() + offset);
            copy.put("startNs", i.path("startNs").asLong() + shift);
            copy.put("endNs", i.path("endNs").asLong() + shift);
            list.add(copy);
        }
        return list;
    }

    /** A round's server figures added to the joined ones: iteration indices numbered on, the first error kept. */
    private static void append(ObjectNode joined, JsonNode round, int offset) {
        if (joined.path("error").isNull() && round.path("error").isTextual()) {
            joined.set("error", round.path("error"));
        }
        ArrayNode its = (ArrayNode) joined.get("iterations");
        for (JsonNode s : round.path("iterations")) {
            its.add(((ObjectNode) s.deepCopy()).put("index", s.path("index").asInt() + offset));
        }
    }
}
