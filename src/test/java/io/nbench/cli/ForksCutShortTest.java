package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nbench.client.ExitCode;
import io.nbench.protocol.Protocol;
import io.nbench.report.compare.ResultFile;
import io.nbench.report.json.ResultDocument;
import io.nbench.report.json.ResultReader;
import io.nbench.report.merge.ResultMerge;
import io.nbench.testkit.ResultDocs;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code client --forks 2 --size 100,200 --out r.json} interrupted while fork 2 measures its first combination:
 * fork 2's document holds that one combination, INTERRUPTED (as the jar writes it: checked by hand with SIGTERM to
 * the process group). The join used to be refused ("the number of combinations is 1, not 2") and r.json not
 * written, so the interrupted sweep lost its joined result, while the last line still named r.json. Now every
 * combination is joined from the forks that ran it, and the one fork 2 never reached says so.
 */
class ForksCutShortTest {

    @TempDir
    Path dir;

    @Test
    void aForkInterruptedBeforeItsLastCombinationsIsJoinedWithWhatItRan() throws Exception {
        Path fork1 = dir.resolve("r.fork1.json");
        CliTest.Outcome o = CliTest.run("client", "--port", CliTest.port(Protocol.FRAMED), "--size", "100,200", "--threads", "1",
                "--msgs", "200", "--warmup", "0", "--iterations", "2", "--out", fork1.toString());
        assertEquals(ExitCode.OK, o.code(), o.out() + o.err());
        // Fork 2 as an interruption in its first combination leaves it: that combination, cut short and interrupted.
        ObjectNode cut = (ObjectNode) ResultDocs.read(fork1);
        cut.put("status", "INTERRUPTED");
        cut.put("exitCode", ExitCode.INTERRUPTED);
        ArrayNode combinations = (ArrayNode) cut.path("combinations");
        combinations.remove(1);
        ObjectNode first = (ObjectNode) combinations.get(0);
        first.put("status", "INTERRUPTED");
        first.put("interrupted", true);
        ((ArrayNode) first.path("iterations")).remove(1);
        Path fork2 = dir.resolve("r.fork2.json");
        ResultDocument.MAPPER.writeValue(fork2.toFile(), cut);

        List<ResultMerge.Input> forks = new ArrayList<>();
        for (Path f : List.of(fork1, fork2)) {
            forks.add(new ResultMerge.Input(f.getFileName().toString(), ResultFile.document(f, ResultReader.DEFAULT_MAX_BYTES)));
        }
        Path out = dir.resolve("r.json");
        StringWriter err = new StringWriter();
        assertEquals(ExitCode.OK, ForkFiles.writeJoined(out, 2, forks, new PrintWriter(err, true)), err.toString());
        assertEquals("", err.toString());

        JsonNode joined = ResultDocs.read(out);
        JsonNode one = ResultDocs.read(fork1);
        assertEquals("INTERRUPTED", joined.path("status").asText());
        assertEquals(2, joined.path("combinations").size(), "every combination of the sweep: " + joined.path("combinations"));
        // The first combination: fork 1's two iterations then fork 2's one, numbered on.
        JsonNode c0 = joined.path("combinations").get(0);
        assertEquals(3, c0.path("iterations").size());
        long messages = 0;
        for (JsonNode it : one.path("combinations").get(0).path("iterations")) {
            messages += it.path("messages").asLong();
        }
        messages += one.path("combinations").get(0).path("iterations").get(0).path("messages").asLong();
        assertEquals(messages, c0.path("summary").path("messages").asLong());
        assertEquals(List.of(1, 2, 3), indexes(c0));
        // The second: fork 1's alone, and a reason naming the fork that never ran it.
        JsonNode c1 = joined.path("combinations").get(1);
        assertEquals(one.path("combinations").get(1).path("name").asText(), c1.path("name").asText());
        assertEquals(List.of(1, 2), indexes(c1));
        assertEquals(one.path("combinations").get(1).path("summary").path("messages").asLong(),
                c1.path("summary").path("messages").asLong());
        assertTrue(c1.path("reasons").toString().contains("r.fork2.json: not run (the forks were interrupted before it)"),
                c1.path("reasons").toString());
    }

    /** A later fork with fewer combinations that was not interrupted is of another configuration: refused. */
    @Test
    void aForkWithFewerCombinationsThatWasNotInterruptedIsStillRefused() throws Exception {
        Path fork1 = dir.resolve("r.fork1.json");
        assertEquals(ExitCode.OK, CliTest.run("client", "--port", CliTest.port(Protocol.FRAMED), "--size", "100,200", "--threads",
                "1", "--msgs", "100", "--warmup", "0", "--iterations", "1", "--out", fork1.toString()).code());
        ObjectNode other = (ObjectNode) ResultDocs.read(fork1);
        ((ArrayNode) other.path("combinations")).remove(1);
        Path fork2 = dir.resolve("r.fork2.json");
        ResultDocument.MAPPER.writeValue(fork2.toFile(), other);
        List<ResultMerge.Input> forks = new ArrayList<>();
        for (Path f : List.of(fork1, fork2)) {
            forks.add(new ResultMerge.Input(f.getFileName().toString(), ResultFile.document(f, ResultReader.DEFAULT_MAX_BYTES)));
        }
        StringWriter err = new StringWriter();
        assertEquals(ExitCode.COULD_NOT_RUN, ForkFiles.writeJoined(dir.resolve("r.json"), 2, forks, new PrintWriter(err, true)));
        assertTrue(err.toString().contains("the number of combinations is 1, not 2"), err.toString());
        assertTrue(Files.notExists(dir.resolve("r.json")));
    }

    private static List<Integer> indexes(JsonNode combination) {
        List<Integer> out = new ArrayList<>();
        combination.path("iterations").forEach(i -> out.add(i.path("index").asInt()));
        return out;
    }
}
