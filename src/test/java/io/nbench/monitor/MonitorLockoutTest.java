package io.nbench.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.client.monitor.MonitorClient;
import io.nbench.server.monitor.MonitorServer;
import io.nbench.testkit.ServerProcess;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Peers without the token cannot lock the monitor out: four raw connections that never authenticate, one
 * sending an empty line and another a byte every 200 ms to look alive, take the four slots of a real
 * server's monitor. While they hold them a client is told the monitor is busy (not that there is none);
 * the server closes each at its authentication deadline, logs it at a rate limit, and the client gets in.
 */
class MonitorLockoutTest {

    private static final String TOKEN = "lockout-test-token";

    @Test
    void unauthenticatedConnectionsAreClosedAtTheDeadlineAndABusyMonitorIsNamedSo() throws Exception {
        MonitorToken token = MonitorToken.from(null, Map.of(MonitorToken.ENV, TOKEN));
        try (ServerProcess server = ServerProcess.withMonitor(TOKEN)) {
            List<Socket> peers = new ArrayList<>();
            List<BufferedReader> answers = new ArrayList<>();
            Thread keepAlive = null;
            try {
                for (int i = 0; i < MonitorServer.MAX_CONNECTIONS; i++) {
                    Socket s = new Socket("127.0.0.1", server.monitorPort);
                    s.setSoTimeout(60_000);
                    BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
                    assertEquals(MonitorProtocol.BANNER, in.readLine());
                    peers.add(s);
                    answers.add(in);
                }
                keepAlive = new Thread(() -> {
                    try {
                        while (!Thread.currentThread().isInterrupted()) {
                            for (int i = 0; i < peers.size(); i++) {
                                // Empty lines, and a line that never ends: both look alive to an idle timeout.
                                peers.get(i).getOutputStream().write(i % 2 == 0 ? '\n' : 'a');
                            }
                            Thread.sleep(200);
                        }
                    } catch (IOException | InterruptedException e) {
                        // closed by the server, or the test is over
                    }
                }, "monitor-squatters");
                keepAlive.start();

                MonitorClient.Failure busy = assertThrows(MonitorClient.Failure.class,
                        () -> MonitorClient.connect("127.0.0.1", server.monitorPort, token, Duration.ofSeconds(30)));
                assertTrue(busy.getMessage().startsWith("the monitor at 127.0.0.1:" + server.monitorPort + " is busy"),
                        busy.getMessage());
                assertFalse(busy.getMessage().contains("point --monitor-port"), busy.getMessage());

                for (BufferedReader in : answers) {
                    assertEquals("ERR no 'auth TOKEN' within 10 s: connection closed", in.readLine());
                    assertNull(in.readLine());
                }
            } finally {
                if (keepAlive != null) {
                    keepAlive.interrupt();
                    keepAlive.join(TimeUnit.SECONDS.toMillis(10));
                }
                for (Socket s : peers) {
                    s.close();
                }
            }
            // The slots come back as the server's threads end: a client gets in (retried until then).
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (true) {
                try (MonitorClient c = MonitorClient.connect("127.0.0.1", server.monitorPort, token, Duration.ofSeconds(30))) {
                    assertTrue(c.metricsJson().startsWith("{"));
                    break;
                } catch (MonitorClient.Failure e) {
                    assertTrue(e.getMessage().contains(" is busy") && System.nanoTime() < deadline, e.getMessage());
                    java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20)); // a retry
                }
            }
            // At the rate limit: one line for the four when they close together; on a busy machine they may close
            // more than a second apart, and a later line then says how many closed since the one before.
            String[] log = server.stderr().strip().split("\n");
            assertTrue(log.length >= 1 && log.length <= 4, "a line per close at most, at a rate limit: "
                    + server.stderr());
            for (String line : log) {
                assertTrue(line.matches("nbench server: monitor: closed a connection from 127\\.0\\.0\\.1:\\d+ that did "
                        + "not authenticate within 10 s \\(\\d+ so far\\); only clients with the token should reach "
                        + "--monitor-bind( \\(\\d+ more since the last line\\))?"), line);
            }
        }
    }
}
