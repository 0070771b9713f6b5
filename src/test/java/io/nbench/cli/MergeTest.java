package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nbench.client.ExitCode;
import io.nbench.protocol.Protocol;
import io.nbench.report.json.ResultDocument;
import io.nbench.stats.HistogramCodec;
import io.nbench.stats.Percentiles;
import io.nbench.testkit.ResultDocs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code nbench report --merge}: three client runs of one configuration (three "hosts") become one document
 * whose figures are those of the HdrHistogram sum, computed here independently from the three documents.
 */
class MergeTest {

    @TempDir
    static Path dir;

    static List<Path> hosts = new ArrayList<>();

    private static Path produce(String name, String... more) {
        Path out = dir.resolve(name + ".json");
        List<String> args = new ArrayList<>(List.of("client", "--port", CliTest.port(Protocol.FRAMED), "--threads", "2",
                "--msgs", "400", "--warmup", "1", "--iterations", "3", "--out", out.toString()));
        args.addAll(List.of(more));
        if (!args.contains("--size")) {
            args.addAll(List.of("--size", "100"));
        }
        CliTest.Outcome o = CliTest.run(args.toArray(new String[0]));
        assertEquals(ExitCode.OK, o.code(), o.out() + o.err());
        return out;
    }

    @BeforeAll
    static void threeHosts() {
        for (int h = 1; h <= 3; h++) {
            hosts.add(produce("host" + h));
        }
    }

    private static Histogram sum(List<JsonNode> docs, int iteration) {
        Histogram h = new Histogram(3);
        for (JsonNode d : docs) {
            h.add(HistogramCodec.decode(d.path("combinations").get(0).path("iterations").get(iteration).path("histogram").asText()));
        }
        return h;
    }

    @Test
    void theMergedDocumentIsTheLosslessSum() throws Exception {
        Path merged = dir.resolve("merged.json");
        CliTest.Outcome o = CliTest.run("report", hosts.get(0).toString(), hosts.get(1).toString(), hosts.get(2).toString(),
                "--merge", "--out", merged.toString());
        assertEquals(ExitCode.OK, o.code(), o.err());
        assertEquals("Merged: " + merged + " (3 documents, 1 combination(s))", o.out().strip());
        JsonNode doc = ResultDocs.read(merged);
        List<JsonNode> docs = new ArrayList<>();
        for (Path p : hosts) {
            docs.add(ResultDocs.read(p));
        }
        JsonNode c = doc.path("combinations").get(0);
        assertEquals(4, c.path("iterations").size(), "the warmup and three measured iterations");
        Histogram all = new Histogram(3);
        long messages = 0;
        for (int i = 0; i < 4; i++) {
            Histogram h = sum(docs, i);
            JsonNode it = c.path("iterations").get(i);
            assertEquals(h.getTotalCount(), it.path("messages").asLong());
            assertEquals(Percentiles.valueAt(h, 99), it.path("latencyNs").path("p99").asLong());
            assertEquals(Percentiles.valueAt(h, 100), it.path("latencyNs").path("p100").asLong());
            long wall = 0;
            for (JsonNode d : docs) {
                wall = Math.max(wall, d.path("combinations").get(0).path("iterations").get(i).path("wallNs").asLong());
            }
            assertEquals(wall, it.path("wallNs").asLong(), "the common window: the longest host's");
            assertEquals(h.getTotalCount() * 1e9 / wall, it.path("msgPerSec").asDouble(), 1e-6);
            if (i > 0) {
                all.add(h);
                messages += h.getTotalCount();
            }
        }
        JsonNode summary = doc.path("summary");
        assertEquals(messages, summary.path("messages").asLong());
        assertEquals(3 * 2 * 3 * 400, messages, "every host's messages");
        assertEquals(Percentiles.valueAt(all, 99), summary.path("latencyNs").path("merged").path("p99").asLong());
        assertEquals(Percentiles.valueAt(all, 99.9), summary.path("latencyNs").path("merged").path("p99.9").asLong());
        assertEquals(all.getMaxValue(), summary.path("latencyNs").path("max").asLong());
        assertEquals(3, summary.path("throughput").path("n").asInt());
        assertEquals(3, c.path("hosts").size(), "each host's own figures, side by side");
        assertEquals(docs.get(1).path("summary").path("throughput").path("mean").asDouble(),
                c.path("hosts").get(1).path("throughput").asDouble());
        assertEquals(3, doc.path("sources").size());
        assertEquals(docs.get(2).path("runId").asText(), doc.path("sources").get(2).path("runId").asText());
        // One server, named alike by every host: the merged document names it
        assertEquals("127.0.0.1:" + CliTest.port(Protocol.FRAMED), doc.at("/configuration/server/address").asText(),
                doc.path("configuration").toString());
        assertEquals(docs.get(0).at("/configuration/server"), doc.at("/configuration/server"));

        // A merged document is an ordinary one: compare, report --html and another merge take it.
        assertEquals(ExitCode.OK, CliTest.run("compare", hosts.get(0).toString(), merged.toString()).code());
        CliTest.Outcome page = CliTest.run("report", merged.toString(), "--html", dir.resolve("m.html").toString());
        assertEquals(ExitCode.OK, page.code(), page.err());
        CliTest.Outcome again = CliTest.run("report", merged.toString(), hosts.get(0).toString(), "--merge");
        assertEquals(ExitCode.OK, again.code(), again.err());
        JsonNode twice = ResultDocs.read(again.out());
        assertEquals(messages + docs.get(0).path("summary").path("messages").asLong(),
                twice.path("summary").path("messages").asLong());
    }

    /** A copy of host 1's document whose server is known: its monitor said this transport. */
    private static Path withServerTransport(String transport) throws IOException {
        ObjectNode d = (ObjectNode)
                ResultDocument.MAPPER.readTree(hosts.get(1).toFile());
        ((ObjectNode) d.at("/configuration/server")).put("transport", transport)
                .put("source", "monitor");
        Path p = dir.resolve("server-" + transport + ".json");
        Files.writeString(p, ResultDocument.pretty(d));
        return p;
    }

    @Test
    void hostsThatStartedMoreThanAnIntervalApartAreReported() throws Exception {
        ObjectNode late = (ObjectNode)
                ResultDocument.MAPPER.readTree(hosts.get(1).toFile());
        ObjectNode c = (ObjectNode)
                late.path("combinations").get(0);
        String start = ResultDocs.read(hosts.get(0)).path("combinations").get(0).path("startTime").asText();
        c.put("startTime", Instant.parse(start).plusMillis(2500).toString());
        Path shifted = dir.resolve("late.json");
        Files.writeString(shifted, ResultDocument.pretty(late));
        CliTest.Outcome o = CliTest.run("report", hosts.get(0).toString(), shifted.toString(), "--merge", "--out",
                dir.resolve("skewed.json").toString());
        assertEquals(ExitCode.OK, o.code(), o.err());
        assertEquals("nbench report: warning: impl=netty,size=100,threads=2,window=1: " + shifted + " started 2.5 s after "
                + hosts.get(0) + " (more than one interval): their iterations cover different windows; start the hosts "
                + "together with nbench client --start-at", o.err().strip());
    }

    @Test
    void documentsOfDifferentConfigurationsAreRefusedNamingTheFirstDifference() throws Exception {
        Path other = produce("bigger", "--size", "200");
        CliTest.Outcome o = CliTest.run("report", hosts.get(0).toString(), other.toString(), "--merge");
        assertEquals(ExitCode.USAGE, o.code());
        assertEquals("", o.out());
        assertEquals(1, o.err().strip().lines().count(), o.err());
        assertTrue(o.err().contains(": load.size is 200, not 100; merge only documents of the same client options"), o.err());

        ObjectNode damaged = (ObjectNode)
                ResultDocument.MAPPER.readTree(hosts.get(1).toFile());
        ((ObjectNode) damaged.path("combinations").get(0)).put("startTime", "yesterday");
        Path bad = dir.resolve("damaged.json");
        Files.writeString(bad, ResultDocument.pretty(damaged));
        CliTest.Outcome broken = CliTest.run("report", hosts.get(0).toString(), bad.toString(), "--merge");
        assertEquals(ExitCode.USAGE, broken.code(), broken.err());
        assertEquals(1, broken.err().strip().lines().count(), broken.err());
        assertTrue(broken.err().contains(": startTime \"yesterday\" is not an ISO-8601 instant"), broken.err());

        // Two servers (known transports that differ) do not add up: refused; a server one host names and another
        // does not know is no longer named (absent), not guessed
        Path nio = withServerTransport("nio");
        Path netty = withServerTransport("netty");
        CliTest.Outcome servers = CliTest.run("report", nio.toString(), netty.toString(), "--merge");
        assertEquals(ExitCode.USAGE, servers.code(), servers.err());
        assertEquals("", servers.out());
        assertEquals("nbench: " + netty + " measured another server than " + nio + ": its transport is netty, not nio; "
                + "merge only documents of one server, one per client host (see 'nbench report --help')", servers.err().strip());
        CliTest.Outcome partly = CliTest.run("report", nio.toString(), hosts.get(2).toString(), "--merge");
        assertEquals(ExitCode.OK, partly.code(), partly.err());
        assertTrue(ResultDocs.read(partly.out()).at("/configuration/server").isMissingNode(), partly.out());

        CliTest.Outcome one = CliTest.run("report", hosts.get(0).toString(), "--merge");
        assertEquals(ExitCode.USAGE, one.code());
        assertTrue(one.err().contains("--merge needs at least two result documents"), one.err());
        CliTest.Outcome nothing = CliTest.run("report", hosts.get(0).toString());
        assertEquals(ExitCode.USAGE, nothing.code());
        assertEquals("nbench: nothing to do: give --html FILE, --merge, or both (see 'nbench report --help')",
                nothing.err().strip());
        CliTest.Outcome outOnly = CliTest.run("report", hosts.get(0).toString(), "--out", "x.json");
        assertEquals(ExitCode.USAGE, outOnly.code());
    }
}
