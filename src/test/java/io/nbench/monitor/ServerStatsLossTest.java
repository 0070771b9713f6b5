package io.nbench.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.client.ServerStats;
import io.nbench.client.monitor.MonitorClient;
import io.nbench.load.RunListener;
import io.nbench.server.ServerMetrics;
import io.nbench.server.metrics.MetricsJson;
import io.nbench.stats.IterationResult;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A monitor that goes away mid-run (a real peer over a real socket: it answers two snapshots, then closes):
 * the run goes on, one line on stderr, and the document says why the later iterations have no server figures.
 */
class ServerStatsLossTest {

    @Test
    void aMonitorLostMidRunCostsOneLineAndTheReasonInTheDocument() throws Exception {
        String json = MetricsJson.line(new ServerMetrics(new PrintWriter(new StringWriter())).snapshot(), 0);
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread peer = new Thread(() -> {
                try (Socket s = listener.accept()) {
                    BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
                    OutputStream out = s.getOutputStream();
                    out.write((MonitorProtocol.BANNER + "\nOK\n").getBytes(StandardCharsets.UTF_8));
                    in.readLine(); // auth
                    for (int i = 0; i < 2; i++) {
                        in.readLine(); // metrics json
                        out.write((json + "\n").getBytes(StandardCharsets.UTF_8));
                        out.flush();
                    }
                } catch (Exception e) {
                    // the test's assertions say what went wrong
                }
            }, "fake-monitor");
            peer.start();
            MonitorToken token = MonitorToken.from(null, Map.of(MonitorToken.ENV, "t"));
            StringWriter err = new StringWriter();
            StringWriter text = new StringWriter();
            try (ServerStats stats = new ServerStats(MonitorClient.connect("127.0.0.1", listener.getLocalPort(), token,
                    Duration.ofSeconds(30)), new PrintWriter(err))) {
                RunListener l = stats.forCombination("c", new PrintWriter(text));
                l.onStarted(0); // the second snapshot; the peer closes after it
                l.onIteration(iteration(1));
                l.onIteration(iteration(2));
                JsonNode node = stats.byCombination().get("c");
                assertEquals(0, node.get("iterations").size());
                assertTrue(node.get("error").asText().startsWith("server stats stopped: the monitor at 127.0.0.1:"
                        + listener.getLocalPort() + " closed the connection"), node.toString());
                assertEquals(1, err.toString().lines().count(), err.toString());
                assertTrue(err.toString().endsWith("(the run goes on without them)\n"), err.toString());
                assertEquals("", text.toString());
            }
            peer.join(30_000);
        }
    }

    private static IterationResult iteration(int index) {
        return new IterationResult(index, false, 0, 1, 0, null, null, 0, false, null, null, null);
    }
}
