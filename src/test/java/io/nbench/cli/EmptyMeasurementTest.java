package io.nbench.cli;

import io.nbench.client.ExitCode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.report.json.ResultDocument;
import io.nbench.testkit.ResultDocs;
import io.nbench.testkit.ScriptedServer;
import io.nbench.testkit.ScriptedServer.Action;
import org.junit.jupiter.api.Test;

/**
 * A run in which no message completes measured nothing: its latency figures are null in JSON and "not
 * measured" in text, never 0 (a latency of 0 would pass every latency threshold and read as perfect).
 */
class EmptyMeasurementTest {

    @Test
    void everyMessageRejectedGivesNullLatenciesNotZeros() throws Exception {
        try (ScriptedServer rejecting = new ScriptedServer(i -> Action.REJECT)) {
            String port = Integer.toString(rejecting.address().getPort());
            CliTest.Outcome o = CliTest.run("client", "--port", port, "--threads", "1", "--msgs", "20", "--warmup", "0",
                    "--iterations", "2", "--format", "json");
            assertEquals(ExitCode.FAILED, o.code(), o.err());
            JsonNode doc = ResultDocs.read(o.out());
            JsonNode summary = doc.get("summary");
            assertEquals(0, summary.get("messages").asLong());
            assertEquals(40, summary.get("errors").get("rejected").asLong());
            JsonNode latency = summary.get("latencyNs");
            for (String name : new String[] {"p25", "p50", "p99", "p100"}) {
                assertTrue(latency.get("merged").get(name).isNull(), "merged " + name + ": " + latency);
                JsonNode mean = latency.get("meanOfIterations").get(name);
                assertTrue(mean.get("mean").isNull() && mean.get("ci").isNull(), "mean of " + name + ": " + mean);
                assertEquals(0, mean.get("n").asInt(), "no iteration measured a latency");
            }
            assertTrue(latency.get("min").isNull() && latency.get("max").isNull() && latency.get("mean").isNull(),
                    latency.toString());
            for (JsonNode it : doc.get("combinations").get(0).get("iterations")) {
                assertEquals(0, it.get("messages").asLong());
                assertTrue(it.get("latencyNs").get("p50").isNull(), it.get("latencyNs").toString());
                assertTrue(it.get("latencyNs").get("p100").isNull(), it.get("latencyNs").toString());
            }

            CliTest.Outcome text = CliTest.run("client", "--port", port, "--threads", "1", "--msgs", "20", "--warmup",
                    "0", "--iterations", "2");
            assertEquals(ExitCode.FAILED, text.code(), text.err());
            assertFalse(text.out().contains("p50: 0.0 µs"), text.out());
            assertFalse(text.out().contains("p50 0.0"), text.out());
            assertTrue(text.out().contains("All 2 iterations merged (0 msgs): latency not measured"), text.out());
            assertTrue(text.out().contains("Mean Result for 2 iterations (99.9% CI): latency not measured"), text.out());
            assertTrue(text.out().matches("(?s).*Iteration 1/2: +0 msgs .*\\| latency not measured \\| errors 20 "
                    + "\\(rejected=20\\).*"), text.out());
        }
    }

    @Test
    void openLoopWithNoAnswerHasNullLatenciesButItsSendLag() throws Exception {
        try (ScriptedServer rejecting = new ScriptedServer(i -> Action.REJECT)) {
            String port = Integer.toString(rejecting.address().getPort());
            CliTest.Outcome o = CliTest.run("client", "--port", port, "--threads", "1", "--msgs", "20", "--warmup", "0",
                    "--iterations", "1", "--rate", "2000", "--format", "json");
            assertEquals(ExitCode.FAILED, o.code(), o.err());
            JsonNode open = ResultDocs.read(o.out()).get("summary").get("openLoop");
            assertTrue(open.get("uncorrectedNs").get("p50").isNull(), open.toString());
            assertFalse(open.get("sendLagNs").get("p50").isNull(), "20 messages were sent: their lag was measured");
        }
    }
}
