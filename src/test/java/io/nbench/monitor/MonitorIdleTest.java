package io.nbench.monitor;

import io.nbench.server.monitor.MonitorServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.nbench.server.ServerMetrics;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A monitor connection that sends nothing is closed after the idle time, with one line saying so. */
class MonitorIdleTest {

    @Test
    void anIdleConnectionIsClosedWithOneLine() throws Exception {
        MonitorToken token = MonitorToken.from(null, Map.of(MonitorToken.ENV, "idle-test"));
        try (MonitorServer monitor = MonitorServer.start(new InetSocketAddress("127.0.0.1", 0), token,
                new ServerMetrics(new PrintWriter(new StringWriter())), Duration.ofMillis(300));
             Socket s = new Socket("127.0.0.1", monitor.address().getPort())) {
            s.setSoTimeout(30_000);
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            assertEquals(MonitorProtocol.BANNER, in.readLine());
            assertEquals("ERR idle for 300 ms: connection closed", in.readLine());
            assertNull(in.readLine());
        }
    }
}
