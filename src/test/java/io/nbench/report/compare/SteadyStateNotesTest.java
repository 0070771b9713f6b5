package io.nbench.report.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.report.json.ResultDocReader;
import io.nbench.report.json.ResultDocument;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code compare} repeats the client's steady-state warning (text, Markdown, and {@code notSteady[]} in JSON) for each combination whose document found a
 * trend, in the client's words; a document without a trend, or older than the test, adds no line.
 */
class SteadyStateNotesTest {

    @TempDir
    Path dir;

    /**
     * A document of one combination named {@code name}, its summary's steadyState given as JSON (or none),
     * taken as read (ResultFile.of): only the fields the note uses, so not one the schema would accept.
     */
    private ResultFile file(String fileName, String name, String steadyState) throws Exception {
        String summary = steadyState == null ? "{}" : "{\"steadyState\": " + steadyState + "}";
        Path p = dir.resolve(fileName);
        Files.writeString(p, "{\"schema\": \"nbench-result/1\", \"combinations\": [{\"name\": \"" + name
                + "\", \"keys\": {}, \"iterations\": [], \"summary\": " + summary + "}]}");
        return ResultFile.of(p, ResultDocReader.document(ResultDocument.MAPPER.readTree(p.toFile())));
    }

    @Test
    void aTrendInTheDocumentIsAWarningLine() throws Exception {
        ResultFile rising = file("a.json", "impl=nio", "{\"trend\": \"rising\", \"rule\": \"monotone\", \"change\": 2.607,"
                + " \"changeLow\": 0.0, \"changeHigh\": null, \"n\": 3}");
        assertEquals("not at steady state: throughput rose 2.6x over 3 iterations; add --warmup or lengthen the "
                + "iterations", rising.combinations().get(0).notSteady());
        ResultFile falling = file("b.json", "impl=netty", "{\"trend\": \"falling\", \"rule\": \"slope\", \"change\": 0.5,"
                + " \"changeLow\": 0.4, \"changeHigh\": 0.6, \"n\": 10}");
        assertEquals("not at steady state: throughput fell 2.0x over 10 iterations; add --warmup or lengthen the "
                + "iterations", falling.combinations().get(0).notSteady());
        ResultFile steady = file("c.json", "impl=mina", "{\"trend\": \"none\", \"rule\": null, \"change\": 1.01,"
                + " \"changeLow\": 0.9, \"changeHigh\": 1.1, \"n\": 10}");
        ResultFile untested = file("d.json", "impl=mina", "{\"trend\": \"untested\", \"rule\": null, \"change\": null,"
                + " \"changeLow\": null, \"changeHigh\": null, \"n\": 2}");
        ResultFile older = file("e.json", "impl=mina", null);
        for (ResultFile f : List.of(steady, untested, older)) {
            assertNull(f.combinations().get(0).notSteady(), f.path().toString());
        }

        List<ResultFile> files = List.of(steady, rising, untested, falling, older);
        assertEquals(List.of("B impl=nio: " + rising.combinations().get(0).notSteady(),
                "D impl=netty: " + falling.combinations().get(0).notSteady()),
                CompareTable.steadyStateWarnings(files).stream().map(CompareTable.NotSteady::text).toList());
        StringWriter text = new StringWriter();
        CompareTable.print(new PrintWriter(text), files, Comparison.compare(files));
        assertTrue(text.toString().contains("\n  E: " + older.path() + "\n  Warning: B impl=nio: not at steady state: "),
                text.toString());
        JsonNode json = CompareFormats.document(files, Comparison.compare(files),
                List.of(), 0).get("notSteady");
        assertEquals(2, json.size(), json.toString());
        assertEquals(rising.path().toString(), json.get(0).get("file").asText());
        assertEquals("impl=nio", json.get(0).get("combination").asText());
        assertEquals(rising.combinations().get(0).notSteady(), json.get(0).get("warning").asText());
        assertEquals(falling.path().toString(), json.get(1).get("file").asText());
        assertEquals("impl=netty", json.get(1).get("combination").asText());

        StringWriter markdown = new StringWriter();
        CompareFormats.markdown(new PrintWriter(markdown), new Sides.Files(files), Comparison.compare(files), List.of(), List.of());
        assertTrue(markdown.toString().contains("\n- :warning: D `impl=netty`: not at steady state: throughput fell 2.0x"),
                markdown.toString());
    }
}
