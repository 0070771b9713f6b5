package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.client.ExitCode;
import io.nbench.protocol.Protocol;
import io.nbench.stats.HistogramCodec;
import io.nbench.stats.Percentiles;
import io.nbench.testkit.ResultDocs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code nbench report --merge} of open-loop documents: two hosts at {@code --rate 500} each loaded the
 * server at 1,000 msg/s together, so the merged target is their sum, as are the messages sent; the
 * uncorrected latency and the send lag are the sums of the hosts' histograms.
 */
class MergeOpenLoopTest {

    @TempDir
    Path dir;

    private Path host(String label) {
        Path out = dir.resolve(label + ".json");
        CliTest.Outcome o = CliTest.run("client", "--port", CliTest.port(Protocol.FRAMED), "--rate", "500", "--threads", "1",
                "--msgs", "100", "--warmup", "0", "--iterations", "2", "--host-label", label, "--out", out.toString());
        // A busy machine may miss the rate (a FAIL): what is merged is the same.
        assertTrue(o.code() == ExitCode.OK || o.code() == ExitCode.FAILED, o.out() + o.err());
        return out;
    }

    @Test
    void theMergedTargetRateIsTheHostsSum() throws Exception {
        List<Path> hosts = List.of(host("a"), host("b"));
        Path merged = dir.resolve("merged.json");
        CliTest.Outcome o = CliTest.run("report", hosts.get(0).toString(), hosts.get(1).toString(), "--merge", "--out",
                merged.toString());
        assertEquals(ExitCode.OK, o.code(), o.err());
        List<JsonNode> docs = new ArrayList<>();
        for (Path p : hosts) {
            docs.add(ResultDocs.read(p).path("combinations").get(0));
        }
        JsonNode c = ResultDocs.read(merged).path("combinations").get(0);
        Histogram allUncorrected = new Histogram(3);
        for (int i = 0; i < 2; i++) {
            JsonNode open = c.path("iterations").get(i).path("openLoop");
            assertEquals(1000.0, open.path("targetRate").asDouble(), "iteration " + (i + 1) + ": 2 hosts x 500 msg/s");
            assertEquals(200, open.path("sent").asLong(), "iteration " + (i + 1) + ": 2 hosts x 100 msgs");
            Histogram uncorrected = new Histogram(3);
            Histogram lag = new Histogram(3);
            for (JsonNode d : docs) {
                JsonNode part = d.path("iterations").get(i).path("openLoop");
                uncorrected.add(HistogramCodec.decode(part.path("uncorrectedHistogram").asText()));
                lag.add(HistogramCodec.decode(part.path("sendLagHistogram").asText()));
            }
            assertEquals(Percentiles.valueAt(uncorrected, 99), open.path("uncorrectedNs").path("p99").asLong());
            assertEquals(Percentiles.valueAt(lag, 99), open.path("sendLagNs").path("p99").asLong());
            assertEquals(open.path("sent").asLong() * 1e9 / c.path("iterations").get(i).path("wallNs").asLong(),
                    open.path("achievedRate").asDouble(), 1e-6, "achieved: everything sent over the common window");
            allUncorrected.add(uncorrected);
        }
        JsonNode summary = c.path("summary").path("openLoop");
        assertEquals(1000.0, summary.path("targetRate").asDouble(), "the summary's target: 2 hosts x 500 msg/s");
        assertEquals(Percentiles.valueAt(allUncorrected, 50), summary.path("uncorrectedNs").path("p50").asLong());
    }
}
