package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.client.ExitCode;
import io.nbench.protocol.Protocol;
import io.nbench.testkit.ResultDocs;
import io.nbench.testkit.ServerProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code client --rate-sweep}: the curve of latency against load, from a server whose capacity is known by
 * arithmetic, as the text, the result document and the HTML report show it (issue 36, "the curve").
 */
class RateSweepTest {

    /** 2 executor threads each sleeping 10 ms per request: at most 200 requests/s, set by the sleeps, not the CPU. */
    private static final double CAPACITY = 200;

    @TempDir
    Path dir;

    /**
     * Nine steps from 100 to 260/s, 20 apart: 180 and 200 are the points within 10 % of the capacity, and every
     * point from 220 up is past it (its queue grows through the step), so a knee within 10 % is decidable. The
     * physics the assertions allow for: a stall of this busy machine only raises latency and lowers the rate
     * achieved; it can move the knee down, never above the capacity.
     */
    @Test
    void theKneeOfASleepBoundServerLiesAtItsCapacity() throws Exception {
        Path out = dir.resolve("sweep.json");
        CliTest.Outcome o;
        try (ServerProcess server = ServerProcess.start(Map.of(), "--port", "0", "--executor-threads", "2", "--work",
                "10ms", "--work-mode", "sleep")) {
            // A cold server JVM beside stress-ng answered nothing for the first step's 1.5 s: a few hundred
            // messages in a closed loop (count-based, so it waits for them) warm it up first.
            assertEquals(ExitCode.OK, CliTest.run("client", "--port", Integer.toString(server.port), "--threads", "2",
                    "--msgs", "100", "--warmup", "0", "--iterations", "1").code());
            // One pacer over 4 connections: requests arrive evenly spaced, so below 200/s the two sleeping
            // threads never queue one behind another (D/D/2); 4 pacers of their own, in random phase, bunch up
            // to 4 requests at once, and at 180/s their queueing alone raised p99 past 3x its floor (a CI pass:
            // knee 160/s).
            o = CliTest.run("client", "--port", Integer.toString(server.port), "--threads", "1", "--connections",
                    "4", "--rate-sweep", "100..260/9",
                    "--iteration-time", "500ms", "--warmup", "1", "--iterations", "2", "--threshold", "p99<=100ms",
                    "--out", out.toString());
        }
        // Steps past the capacity breach the threshold: exit 3, not a failure to run.
        assertEquals(ExitCode.THRESHOLD, o.code(), o.out() + o.err());
        assertEquals("", o.err(), "a clean run writes nothing to stderr");
        JsonNode doc = ResultDocs.read(out); // checked against the schema
        ResultDocRoundTripTest.assertRoundTrip(out); // the curve's reader loses nothing its writer wrote
        JsonNode curve = doc.path("curve");
        assertEquals(9, curve.size(), doc.toString());
        List<Double> p99s = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            JsonNode p = curve.get(i);
            double offered = 100 + 20 * i;
            assertEquals(offered, p.path("offeredRate").asDouble(), 1e-9, p.toString());
            JsonNode c = doc.path("combinations").get(i);
            assertEquals(c.path("name").asText(), p.path("combination").asText());
            assertEquals(c.path("summary").path("latencyNs").path("merged").path("p99").asLong(), p.path("p99").asLong());
            if (offered <= 0.8 * CAPACITY) {
                // Within 1 % and two messages of the 1 s measured: the iterations count whole messages, and a stall
                // the pacer catches up on moves one across an iteration's end (beside a CPU hog: 101.44/s at 100).
                assertEquals(offered, p.path("achievedRate").asDouble(), 0.01 * offered + 2, "sent as offered: " + p);
            }
            if (offered > 1.1 * CAPACITY) {
                assertTrue(p.path("answeredRate").asDouble() < 0.99 * offered, "past the capacity, answered short: " + p);
                assertTrue(!p.path("cause").asText().equals("passed"), p.toString());
            }
            p99s.add(p.path("p99").asDouble());
        }
        // The knee by its rule, computed here: the highest rate whose p99 is within 3x the curve's lowest.
        double floor = p99s.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        int knee = -1;
        for (int i = 0; i < 9; i++) {
            if (p99s.get(i) <= 3 * floor) {
                knee = i;
            }
        }
        for (int i = 0; i < 9; i++) {
            assertEquals(i == knee, curve.get(i).path("knee").asBoolean(), "the knee is point " + knee + ": " + curve);
        }
        double kneeRate = 100 + 20 * knee;
        assertTrue(Math.abs(kneeRate - CAPACITY) <= 0.1 * CAPACITY + 1e-9,
                "the knee " + kneeRate + "/s within 10 % of the capacity " + CAPACITY + "/s: " + o.out());
        assertTrue(o.out().contains("LATENCY AGAINST LOAD (9 open-loop steps"), o.out());
        assertTrue(o.out().contains("knee: " + (int) kneeRate + "/s offered"), o.out());
        assertTrue(o.out().lines().anyMatch(l -> l.strip().startsWith((int) kneeRate + " ") && l.contains("<- knee")),
                o.out());

        // The report: the hockey stick, its points at the rates achieved, the knee marked, the threshold's line;
        // given twice, the same curves again on one chart, as nbench run draws one per server.
        Path html = dir.resolve("sweep.html");
        CliTest.Outcome r = CliTest.run("report", out.toString(), out.toString(), "--html", html.toString());
        assertEquals(ExitCode.OK, r.code(), r.err());
        JsonNode drawn = HtmlReportTest.data(Files.readString(html)).path("files").get(0).path("curve");
        assertEquals(9, drawn.path("points").size());
        assertEquals(100_000.0, drawn.path("limits").get(0).path("limit").asDouble(), "100 ms in µs: " + drawn);
        if (!HtmlReportTest.chromium()) {
            return;
        }
        List<JsonNode> charts = new ArrayList<>();
        HtmlReportTest.probe(html).path("before").path("charts").forEach(c -> {
            if (c.path("kind").asText().equals("knee")) {
                charts.add(c);
            }
        });
        assertEquals(3, charts.size(), "one chart per file and one of both: " + charts);
        assertEquals("latency against load, one curve per file", charts.get(0).path("title").asText());
        JsonNode one = charts.get(1);
        assertEquals("rate sweep: latency against load", one.path("title").asText());
        assertEquals("[\"achieved\",\"p99\",\"p50\",\"knee\",\"objective p99<=100ms\"]", one.path("series").toString());
        JsonNode data = one.path("data");
        List<Double> xs = new ArrayList<>();
        data.get(0).forEach(x -> xs.add(x.asDouble()));
        for (JsonNode p : curve) {
            int k = xs.indexOf(p.path("achievedRate").asDouble());
            assertTrue(k >= 0, "a point at the rate achieved: " + p + " in " + xs);
            assertEquals(p.path("p99").asLong() / 1000.0, data.get(1).get(k).asDouble(), 1e-9, "p99 in µs");
            assertEquals(p.path("p50").asLong() / 1000.0, data.get(2).get(k).asDouble(), 1e-9, "p50 in µs");
            assertEquals(p.path("knee").asBoolean(), !data.get(3).get(k).isNull(), "the knee marked: " + p);
            assertEquals(100_000.0, data.get(4).get(k).asDouble(), "the threshold's line");
            for (int s = 0; s < 4; s++) {
                assertEquals(!data.get(s + 1).get(k).isNull(), one.path("inside").get(s).get(k).asBoolean(false),
                        "series " + s + " at " + p + " drawn inside the plot: " + one.path("inside"));
            }
        }
        assertEquals(1 + 3 * 2 + 1, charts.get(0).path("series").size(), "p99, p50 and knee per file, one line");
    }

    @Test
    void badFormsAndCombinationsAreOneLineUsageErrors() {
        String port = CliTest.port(Protocol.FRAMED);
        expectUsage("'100-500' is not FROM..TO[/STEPS]: use e.g. --rate-sweep 100..500/9", "--port", port,
                "--rate-sweep", "100-500");
        expectUsage("is not FROM..TO[/STEPS]", "--port", port, "--rate-sweep", "100..500/x");
        expectUsage("needs 0 < FROM < TO and 2 to 1000 steps", "--port", port, "--rate-sweep", "500..100");
        expectUsage("needs 0 < FROM < TO and 2 to 1000 steps", "--port", port, "--rate-sweep", "100..500/1");
        expectUsage("--rate-sweep and --find-rate both choose the rates: use one of them", "--port", port,
                "--rate-sweep", "100..500", "--find-rate", "--slo", "p99<=10ms");
        expectUsage("--rate-sweep sets the rates itself: leave out --rate", "--port", port, "--rate-sweep",
                "100..500", "--rate", "100");
        expectUsage("--rate-sweep runs one sweep: leave out --forks", "--port", port, "--rate-sweep", "100..500",
                "--forks", "2");
        expectUsage("--rate-sweep measures one combination at each rate", "--port", port, "--rate-sweep",
                "100..500", "--size", "1k,2k");
    }

    private static void expectUsage(String message, String... args) {
        List<String> all = new ArrayList<>(List.of("client"));
        all.addAll(List.of(args));
        CliTest.Outcome o = CliTest.run(all.toArray(new String[0]));
        assertEquals(ExitCode.USAGE, o.code(), o.err());
        assertTrue(o.err().lines().findFirst().orElse("").contains(message), o.err());
        assertEquals("", o.out());
    }
}
