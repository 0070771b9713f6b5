package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.client.ExitCode;
import io.nbench.client.monitor.MonitorClient;
import io.nbench.monitor.MonitorToken;
import io.nbench.process.ChildServer;
import io.nbench.server.ReadyLine;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A server started with {@code --ready-line} reports where it listens as a machine-readable first line,
 * before the human banner, which stays as users see it; {@code nbench run}'s child server is found
 * through that line.
 */
class ServerReadyLineTest {

    @Test
    void readyLineIsTheExactFormatThenTheUnchangedBanner() {
        CliTest.Outcome o = CliTest.run("server", "--impl", "nio", "--port", "0", "--duration", "200ms", "--ready-line");
        assertEquals(ExitCode.OK, o.code(), o.err());
        String[] lines = o.out().split("\n");
        Matcher ready = Pattern.compile("nbench-ready \\{\"address\":\"127\\.0\\.0\\.1\",\"port\":(\\d+)}")
                .matcher(lines[0]);
        assertTrue(ready.matches(), lines[0]);
        assertTrue(lines[1].startsWith("nbench server: nio listening on 127.0.0.1:" + ready.group(1) + ", "), lines[1]);
        assertEquals(new InetSocketAddress("127.0.0.1", Integer.parseInt(ready.group(1))),
                ReadyLine.parse(lines[0]).orElseThrow());
    }

    @Test
    void withoutTheFlagTheBannerComesFirst() {
        CliTest.Outcome o = CliTest.run("server", "--impl", "nio", "--port", "0", "--duration", "200ms");
        assertEquals(ExitCode.OK, o.code(), o.err());
        assertTrue(o.out().startsWith("nbench server: nio listening on 127.0.0.1:"), o.out());
        assertFalse(o.out().contains(ReadyLine.PREFIX), o.out());
    }

    @Test
    void childServerIsFoundThroughItsReadyLine() throws Exception {
        try (ChildServer child = ChildServer.start(List.of("--impl", "nio", "--port", "0"))) {
            assertTrue(child.banner().startsWith("nbench server: nio listening on 127.0.0.1:" + child.port() + ", "),
                    child.banner());
            try (Socket s = new Socket("127.0.0.1", child.port())) {
                assertTrue(s.isConnected());
            }
            String metrics = child.stop();
            assertFalse(metrics.contains(ReadyLine.PREFIX), metrics);
        }
    }

    /** With a monitor the line also names its port; the token comes from the child's environment, not argv. */
    @Test
    void childServerWithAMonitorReportsItsPortInTheReadyLine() throws Exception {
        String token = "ready-line-test-token";
        try (ChildServer child = ChildServer.start(List.of("--impl", "nio", "--port", "0", "--monitor-port", "0"),
                Map.of(MonitorToken.ENV, token))) {
            assertTrue(child.monitorPort() > 0 && child.monitorPort() != child.port(), child.banner());
            assertTrue(child.banner().contains(", monitor on 127.0.0.1:" + child.monitorPort()), child.banner());
            try (MonitorClient monitor = MonitorClient.connect("127.0.0.1",
                    child.monitorPort(), MonitorToken.from(null,
                            Map.of(MonitorToken.ENV, token)),
                    Duration.ofSeconds(10))) {
                assertTrue(monitor.metricsJson().contains("\"sinceStart\""), "the monitor answers with this token");
            }
            child.stop();
        }
        assertEquals(OptionalInt.empty(), ReadyLine.monitorPort("nbench-ready {\"address\":\"127.0.0.1\","
                + "\"port\":7007}"));
        assertEquals(OptionalInt.of(7008), ReadyLine.monitorPort("nbench-ready {\"address\":\"127.0.0.1\","
                + "\"port\":7007,\"monitorPort\":7008}"));
    }

    @Test
    void malformedReadyLinesAreNotTakenForAnAddress() {
        for (String line : new String[] {null, "", "nbench server: nio listening on 127.0.0.1:7007",
                "nbench-ready ", "nbench-ready {\"address\":\"127.0.0.1\"}", "nbench-ready {\"port\":7007}",
                "nbench-ready {\"address\":\"127.0.0.1\",\"port\":0}", "nbench-ready {\"address\":1,\"port\":7007}",
                "nbench-ready {\"address\":\"127.0.0.1\",\"port\":\"x\"}", "nbench-ready [1,2]", "nbench-ready {"}) {
            assertTrue(ReadyLine.parse(line).isEmpty(), String.valueOf(line));
        }
    }
}
