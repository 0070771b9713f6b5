package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nbench.client.ExitCode;
import io.nbench.protocol.Protocol;
import io.nbench.report.json.ResultDocReader;
import io.nbench.report.json.ResultDocWriter;
import io.nbench.report.json.ResultDocument;
import io.nbench.report.json.ResultReader;
import io.nbench.testkit.ServerProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The result document has one reader and one writer: every kind of document nbench writes (closed and open
 * loop, a time-based run's drain, reconnects, a sweep with its own percentiles and a breached threshold, the
 * server's figures, a merged document) read into the typed model and written again is the same text, byte for
 * byte. So no reader loses a field the writer wrote, and the writer prints figures, nulls and absent fields as
 * the document has them.
 */
class ResultDocRoundTripTest {

    @TempDir
    static Path dir;

    /** A document of that run; its verdict does not matter (an open loop may miss its rate on a busy machine). */
    private static Path client(String name, String... more) {
        Path out = dir.resolve(name + ".json");
        List<String> args = new ArrayList<>(List.of("client", "--out", out.toString(), "--warmup", "1"));
        if (!List.of(more).contains("--port")) {
            args.addAll(List.of("--port", CliTest.port(Protocol.FRAMED)));
        }
        args.addAll(List.of(more));
        CliTest.Outcome o = CliTest.run(args.toArray(new String[0]));
        assertTrue(Files.isRegularFile(out), o.code() + ": " + o.out() + o.err());
        return out;
    }

    static void assertRoundTrip(Path file) throws Exception {
        String written = Files.readString(file);
        String again = ResultDocument.pretty(ResultDocWriter.document(ResultDocReader.document(
                ResultReader.read(file, ResultReader.DEFAULT_MAX_BYTES)))) + "\n";
        assertEquals(written, again, file + " read and written again");
    }

    @Test
    void everyKindOfDocumentReadsAndWritesBackByteForByte() throws Exception {
        List<Path> files = new ArrayList<>();
        files.add(client("closed", "--threads", "2", "--msgs", "300", "--iterations", "2"));
        files.add(client("open", "--rate", "1k", "--iteration-time", "300ms", "--iterations", "2"));
        files.add(client("reconnects", "--msgs", "200", "--requests-per-connection", "20",
                "--iterations", "2"));
        files.add(client("sweep", "--msgs", "200", "--iterations", "2", "--size",
                "16,64", "--percentiles", "50,99.99", "--threshold", "p50<1ns"));
        String token = "round-trip-token";
        Path tokenFile = Files.writeString(dir.resolve("token"), token + "\n");
        try (ServerProcess server = ServerProcess.withMonitor(token)) {
            files.add(client("stats", "--port", Integer.toString(server.port), "--server-stats",
                    "--monitor-port", Integer.toString(server.monitorPort), "--monitor-token-file",
                    tokenFile.toString(), "--msgs", "200", "--iterations", "2"));
        }
        Path merged = dir.resolve("merged.json");
        CliTest.Outcome o = CliTest.run("report", "--merge", files.get(1).toString(), files.get(1).toString(),
                "--out", merged.toString());
        assertEquals(ExitCode.OK, o.code(), o.err());
        files.add(merged);
        for (Path f : files) {
            assertRoundTrip(f);
        }
    }

    /**
     * Documents the writer before the typed model wrote (nbench client with an open loop's drain and intervals,
     * --server-stats, --requests-per-connection, and report --merge of two open-loop documents) come out of
     * today's reader and writer unchanged: the bytes of the format did not move with the code.
     */
    @Test
    void documentsOfThePreviousWriterReadAndWriteBackByteForByte() throws Exception {
        for (String name : List.of("open.json", "stats.json", "reconn.json", "merged.json")) {
            Path copy = dir.resolve("before-" + name);
            try (var in = getClass().getResourceAsStream("/io/nbench/report/json/written-before-records/" + name)) {
                Files.write(copy, in.readAllBytes());
            }
            String written = Files.readString(copy);
            JsonNode again = ResultDocument.MAPPER.readTree(ResultDocument.pretty(ResultDocWriter.document(
                    ResultDocReader.document(ResultReader.read(copy, ResultReader.DEFAULT_MAX_BYTES)))));
            // The one field added since, in every count of errors by class: HTTP's status errors, 0 in a document
            // written before them. Everything else comes back byte for byte.
            assertEquals(written, ResultDocument.pretty(withoutAddedStatusClass(again)) + "\n", copy + " read and written again");
        }
    }

    /** {@code node} without the {@code status} error class (beside {@code integrity}) where it is 0. */
    private static JsonNode withoutAddedStatusClass(JsonNode node) {
        if (node instanceof ObjectNode o) {
            if (o.has("integrity") && o.path("status").isNumber() && o.path("status").asLong() == 0) {
                o.remove("status");
            }
            o.elements().forEachRemaining(ResultDocRoundTripTest::withoutAddedStatusClass);
        } else if (node.isArray()) {
            node.elements().forEachRemaining(ResultDocRoundTripTest::withoutAddedStatusClass);
        }
        return node;
    }
}
