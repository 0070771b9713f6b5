package io.nbench.report.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.nbench.report.json.ResultDocReader;
import io.nbench.report.json.ResultDocument;
import io.nbench.stats.HistogramCodec;
import io.nbench.stats.LatencyHistograms;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Result documents read back for compare: keys, measured iterations only, and a one-line reason otherwise. */
class ResultFileTest {

    @TempDir
    Path dir;

    @Test
    void readsKeysAndMeasuredIterations() throws Exception {
        Histogram h = LatencyHistograms.newHistogram();
        h.recordValue(1234);
        String histogram = HistogramCodec.encode(h);
        Path f = Files.writeString(dir.resolve("r.json"), "{\"schema\": \"" + ResultDocument.SCHEMA + "\", \"combinations\": ["
                + "{\"name\": \"impl=netty,size=1\", \"keys\": {\"impl\": \"netty\", \"size\": 1}, \"iterations\": ["
                + "{\"warmup\": true, \"msgPerSec\": 1, \"histogram\": \"" + histogram + "\"},"
                + "{\"warmup\": false, \"messages\": 1, \"wallNs\": 3992016, \"msgPerSec\": 250.5, \"histogram\": \""
                + histogram + "\"},"
                + "{\"messages\": 1, \"wallNs\": 3333333, \"msgPerSec\": 300, \"histogram\": \"" + histogram + "\"}]},"
                + "{\"name\": \"impl=mina\", \"keys\": {\"impl\": \"mina\"}, \"iterations\": []}]}");
        // The fields compare reads, not a whole document: read with of(), which the schema-checking read() calls.
        ResultFile r = ResultFile.of(f, ResultDocReader.document(ResultDocument.MAPPER.readTree(f.toFile())));
        assertEquals(f, r.path());
        assertEquals(2, r.combinations().size());
        ResultFile.CombinationData c = r.combinations().get(0);
        assertEquals("impl=netty,size=1", c.name());
        assertEquals(Map.of("impl", "netty", "size", "1"), c.keys());
        assertEquals(List.of(250.5, 300.0), c.iterations().stream().map(ResultFile.IterationData::msgPerSec).toList());
        assertEquals(1, c.iterations().get(0).latency().getTotalCount());
        assertEquals(Map.of("impl", "mina"), r.combinations().get(1).keys());
    }

    private String unreadable(String name, String content) throws IOException {
        Path f = Files.writeString(dir.resolve(name), content);
        return assertThrows(ResultFile.Unreadable.class, () -> ResultFile.read(f)).getMessage();
    }

    @Test
    void unreadableFilesSayWhyInOneLine() throws Exception {
        Path missing = dir.resolve("missing.json");
        assertEquals(missing + ": no such file",
                assertThrows(ResultFile.Unreadable.class, () -> ResultFile.read(missing)).getMessage());
        String notJson = unreadable("a.json", "not json");
        assertEquals(true, notJson.startsWith(dir.resolve("a.json") + ": not a JSON document (Unrecognized token 'not'"),
                notJson);
        assertEquals(false, notJson.contains("\n"), notJson);
        assertEquals(dir.resolve("b.json") + ": not a JSON object", unreadable("b.json", "[1, 2]"));
        assertEquals(dir.resolve("e.json") + ": not a JSON object", unreadable("e.json", ""));
        assertEquals(dir.resolve("c.json") + ": schema is missing, expected '" + ResultDocument.SCHEMA
                + "' (written by nbench client --out or --format json)", unreadable("c.json", "{}"));
        assertEquals(dir.resolve("d.json") + ": schema is 'other/1', expected '" + ResultDocument.SCHEMA
                + "' (written by nbench client --out or --format json)", unreadable("d.json", "{\"schema\": \"other/1\"}"));
        String invalid = unreadable("g.json", "{\"schema\": \"" + ResultDocument.SCHEMA + "\", \"combinations\": 3}");
        assertEquals(true, invalid.startsWith(dir.resolve("g.json") + ": "), invalid);
        assertEquals(true, invalid.endsWith(": not a valid " + ResultDocument.SCHEMA + " document (damaged, or edited?)"),
                invalid);
        Path f = Files.writeString(dir.resolve("f.json"), "{\"schema\": \"" + ResultDocument.SCHEMA + "\", "
                + "\"combinations\": [{\"iterations\": [{\"histogram\": \"!!not base64!!\"}]}]}");
        String damaged = assertThrows(ResultFile.Unreadable.class,
                () -> ResultFile.of(f, ResultDocReader.document(ResultDocument.MAPPER.readTree(f.toFile())))).getMessage();
        assertEquals(f + ": combinations[0].iterations[0].histogram: not an HdrHistogram compressed histogram "
                + "(IllegalArgumentException: Illegal base64 character 21)", damaged);
    }
}
