package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.protocol.Protocol;
import io.nbench.server.BenchServer;
import io.nbench.server.ServerPlan;
import io.nbench.stats.HistogramCodec;
import io.nbench.testkit.ResultDocs;
import io.nbench.tls.TlsChoice;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The TLS handshake latency through the command line: with {@code --requests-per-connection 1} every request has a
 * connection, and so a handshake, of its own; the handshakes reported are the connections the server accepted
 * after the client's first ones.
 */
class TlsHandshakeCliTest {

    @TempDir
    static Path dir;

    static List<String> tlsTransports() {
        return TlsCliTest.tlsTransports();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("tlsTransports")
    void everyReconnectsHandshakeIsTimed(String client) throws Exception {
        int threads = 2;
        Path out = dir.resolve(client + ".json");
        ServerPlan plan = ServerPlan.builder().transport("netty", Map.of()).protocol(Protocol.FRAMED)
                .tls(TlsChoice.defaults(), null, null).build();
        CliTest.Outcome o;
        long accepted;
        try (BenchServer s = BenchServer.start(plan, new PrintWriter(new StringWriter()),
                new PrintWriter(new StringWriter()))) {
            o = CliTest.run("client", "--impl", client, "--port", Integer.toString(s.address().getPort()), "--tls",
                    "--tls-insecure", "--threads", Integer.toString(threads), "--msgs", "100", "--warmup", "0",
                    "--iterations", "1", "--requests-per-connection", "1", "--out", out.toString());
            accepted = s.metrics().totalConnections();
        }
        assertEquals(0, o.code(), o.out() + o.err());
        assertEquals("", o.err());
        JsonNode it = ResultDocs.valid(ResultDocs.read(out)).path("combinations").get(0).path("iterations").get(0);
        long handshakes = it.path("handshakeLatency").path("count").asLong();
        // The first connections' handshakes were made before the iteration, as their connects were.
        assertEquals(accepted - threads, handshakes, it.toString());
        assertEquals(it.path("connectLatency").path("count").asLong(), handshakes, "a handshake per reconnect");
        assertTrue(it.path("handshakeLatency").path("latencyNs").path("p50").asLong() > 0, it.toString());
        assertTrue(o.out().contains("\nTLS handshakes: "), o.out());
        handshakesAreTheConnectsLastPart(it);
    }

    /**
     * The handshake is timed from the TCP connection's establishment, the connect from the request to connect: each
     * reconnect's handshake is its connect minus the TCP connect (socket, SYN, SYN-ACK; tens of microseconds on
     * loopback), so the two histograms are never equal: every percentile of the handshakes is at most the
     * connects' (each value is below its own connect's) and their mean is below the connects' mean. Timed from
     * the connect's start (one changed variable in LoadConnection.reconnect, or a transport reporting the
     * handshake's start before it connects), the handshakes' histogram is the connects', value for value, and
     * the printed handshake latency is the connect latency.
     */
    private static void handshakesAreTheConnectsLastPart(JsonNode it) {
        org.HdrHistogram.Histogram handshakes = HistogramCodec.decode(
                it.path("handshakeLatency").path("histogram").asText());
        org.HdrHistogram.Histogram connects = HistogramCodec.decode(
                it.path("connectLatency").path("histogram").asText());
        assertEquals(connects.getTotalCount(), handshakes.getTotalCount(), it.toString());
        for (double p : new double[] {25, 50, 90, 99, 100}) {
            assertTrue(handshakes.getValueAtPercentile(p) <= connects.getValueAtPercentile(p),
                    "p" + p + ": handshake " + handshakes.getValueAtPercentile(p) + " ns > connect "
                            + connects.getValueAtPercentile(p) + " ns, of which it is a part");
        }
        assertTrue(handshakes.getMean() < connects.getMean(), "the handshakes' mean " + handshakes.getMean()
                + " ns is not below the connects' " + connects.getMean() + " ns: timed from the connect's start");
        assertTrue(!it.path("handshakeLatency").path("histogram").asText()
                .equals(it.path("connectLatency").path("histogram").asText()), "the handshakes are the connects");
    }

    /**
     * HTTPS without reconnects: each of the 3 connections the client opens makes a handshake, before the first
     * iteration; the run reports them all (before: "TLS handshakes: 0", only reconnects were counted). With a warmup
     * iteration they are counted in the first measured one, and the document says how many of its handshakes were
     * the opening ones.
     */
    @org.junit.jupiter.api.Test
    void everyConnectionOpenedHandshakesTheFirstOnesToo() throws Exception {
        Path out = dir.resolve("opening.json");
        ServerPlan plan = ServerPlan.builder().transport("netty", Map.of()).protocol(Protocol.HTTP)
                .tls(TlsChoice.defaults(), null, null).build();
        CliTest.Outcome o;
        long accepted;
        try (BenchServer s = BenchServer.start(plan, new PrintWriter(new StringWriter()),
                new PrintWriter(new StringWriter()))) {
            o = CliTest.run("client", "--url", "https://127.0.0.1:" + s.address().getPort() + "/", "--tls-insecure",
                    "--connections", "3", "--msgs", "10", "--warmup", "1", "--iterations", "1",
                    "--out", out.toString());
            accepted = s.metrics().totalConnections();
        }
        assertEquals(0, o.code(), o.out() + o.err());
        assertEquals("", o.err());
        assertEquals(3, accepted, "the server accepted the client's 3 connections");
        assertTrue(o.out().contains("\nTLS handshakes: 3 "), o.out());
        long handshakes = 0;
        for (JsonNode it : ResultDocs.valid(ResultDocs.read(out)).path("combinations").get(0).path("iterations")) {
            if (!it.path("warmup").asBoolean()) {
                handshakes += it.path("handshakeLatency").path("count").asLong() + it.path("openingHandshakes").asLong();
            }
        }
        assertEquals(accepted, handshakes, "the document counts a handshake per connection opened");
    }

    /**
     * {@code --forks} joins each fork's iterations into one document: the handshakes stay in it, each joined
     * iteration's as its fork's (before: the join dropped {@code handshakeLatency}).
     */
    @org.junit.jupiter.api.Test
    void forksKeepTheirHandshakesInTheJoinedDocument() throws Exception {
        Path out = dir.resolve("forked.json");
        ServerPlan plan = ServerPlan.builder().transport("netty", Map.of()).protocol(Protocol.FRAMED)
                .tls(TlsChoice.defaults(), null, null).build();
        CliTest.Outcome o;
        try (BenchServer s = BenchServer.start(plan, new PrintWriter(new StringWriter()),
                new PrintWriter(new StringWriter()))) {
            o = CliTest.run("client", "--impl", "nio", "--port", Integer.toString(s.address().getPort()), "--tls",
                    "--tls-insecure", "--threads", "1", "--msgs", "30", "--warmup", "0", "--iterations", "2",
                    "--requests-per-connection", "1", "--forks", "2", "--out", out.toString());
        }
        assertEquals(0, o.code(), o.out() + o.err());
        JsonNode joined = ResultDocs.valid(ResultDocs.read(out)).path("combinations").get(0).path("iterations");
        List<JsonNode> forked = new ArrayList<>();
        for (String fork : List.of("forked.fork1.json", "forked.fork2.json")) {
            ResultDocs.valid(ResultDocs.read(dir.resolve(fork))).path("combinations").get(0).path("iterations")
                    .forEach(forked::add);
        }
        assertEquals(forked.size(), joined.size(), joined.toString());
        for (int i = 0; i < forked.size(); i++) {
            JsonNode f = forked.get(i).path("handshakeLatency");
            JsonNode j = joined.get(i).path("handshakeLatency");
            assertTrue(f.path("count").asLong() > 0, f.toString());
            assertEquals(f.path("count").asLong(), j.path("count").asLong(), "iteration " + i + ": " + j);
            assertEquals(f.path("resumed").asLong(), j.path("resumed").asLong(), "iteration " + i + ": " + j);
            assertEquals(f.path("histogram").asText(), j.path("histogram").asText(), "iteration " + i);
        }
    }
}
