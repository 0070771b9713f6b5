package io.nbench.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.client.monitor.MonitorClient;
import io.nbench.server.monitor.MonitorServer;
import io.nbench.testkit.ServerProcess;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Peers without the token cannot lock the monitor out (issue 41): four peers that never authenticate, each
 * reconnecting as soon as it is closed and keeping itself busy meanwhile (empty lines, a line trickled a byte every
 * 200 ms), take the four sessions' worth of a real server's monitor. Before, they held all four slots for good: 0 of
 * 15 console attempts got in over 35 s. Now they only wait, apart from the sessions; a client with the token gets in
 * at once, every time; one address cannot fill the waiting room alone (a ninth from it displaces its oldest); each
 * squatter is still closed at its authentication deadline, logged at the server's rate limit.
 */
class MonitorLockoutTest {

    private static final String TOKEN = "lockout-test-token";

    /** A peer that never authenticates: connects, reads the banner, looks alive; again as soon as it is closed. */
    private static final class Squatter implements Runnable {
        final int port;
        final boolean trickle;
        final AtomicLong connections = new AtomicLong();
        final ConcurrentLinkedQueue<String> lastLines = new ConcurrentLinkedQueue<>();
        volatile Socket current;

        Squatter(int port, boolean trickle) {
            this.port = port;
            this.trickle = trickle;
        }

        @Override
        public void run() {
            while (!Thread.currentThread().isInterrupted()) {
                try (Socket s = new Socket("127.0.0.1", port)) {
                    current = s;
                    connections.incrementAndGet();
                    s.setSoTimeout(200);
                    BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(),
                            StandardCharsets.UTF_8));
                    while (!Thread.currentThread().isInterrupted()) {
                        try {
                            String line = in.readLine();
                            if (line == null) {
                                break; // closed: reconnect at once
                            }
                            if (line.startsWith("ERR")) {
                                lastLines.add(line);
                            }
                        } catch (SocketTimeoutException e) {
                            s.getOutputStream().write(trickle ? 'a' : '\n'); // still here
                        }
                    }
                } catch (IOException e) {
                    // reset or refused: reconnect at once
                }
            }
        }
    }

    @Test
    void squattersReconnectingCannotKeepAClientWithTheTokenOut() throws Exception {
        MonitorToken token = MonitorToken.from(null, Map.of(MonitorToken.ENV, TOKEN));
        try (ServerProcess server = ServerProcess.withMonitor(TOKEN)) {
            List<Squatter> squatters = new ArrayList<>();
            List<Thread> threads = new ArrayList<>();
            List<Socket> crowd = new ArrayList<>();
            try {
                for (int i = 0; i < MonitorServer.MAX_CONNECTIONS; i++) {
                    Squatter q = new Squatter(server.monitorPort, i % 2 == 1);
                    squatters.add(q);
                    Thread t = new Thread(q, "monitor-squatter-" + i);
                    threads.add(t);
                    t.start();
                }
                for (Squatter q : squatters) { // each holding a connection
                    long by = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                    while (q.connections.get() == 0) {
                        assertTrue(System.nanoTime() < by, "a squatter never connected");
                        Thread.sleep(10);
                    }
                }
                // Before: "the monitor at 127.0.0.1:P is busy", every time, for as long as the squatters went on.
                for (int i = 0; i < 5; i++) {
                    try (MonitorClient c = MonitorClient.connect("127.0.0.1", server.monitorPort, token,
                            Duration.ofSeconds(30))) {
                        assertTrue(c.metricsJson().startsWith("{"));
                    }
                }

                // One address cannot fill the waiting room: a ninth connection from 127.0.0.2 closes its first.
                InetAddress other = InetAddress.getByName("127.0.0.2");
                List<BufferedReader> crowdIn = new ArrayList<>();
                for (int i = 0; i <= MonitorServer.MAX_WAITING_PER_ADDRESS; i++) {
                    Socket s = new Socket();
                    s.bind(new InetSocketAddress(other, 0));
                    s.connect(new InetSocketAddress("127.0.0.1", server.monitorPort));
                    s.setSoTimeout(30_000);
                    crowd.add(s);
                    BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(),
                            StandardCharsets.UTF_8));
                    assertEquals(MonitorProtocol.BANNER, in.readLine());
                    crowdIn.add(in);
                }
                String first;
                try {
                    first = crowdIn.get(0).readLine();
                } catch (SocketException e) {
                    first = null; // closed by the server: a reset is as good as an end here
                }
                assertNull(first, "the oldest waiting connection from 127.0.0.2 was displaced");
                for (Socket s : crowd) {
                    s.close();
                }

                // The squatters are still closed at their deadline (10 s after each connected).
                long by = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (squatters.stream().noneMatch(q -> q.lastLines.contains(
                        "ERR no 'auth TOKEN' within 10 s: connection closed"))) {
                    assertTrue(System.nanoTime() < by, "no squatter was closed at its deadline");
                    Thread.sleep(50);
                }
            } finally {
                for (Thread t : threads) {
                    t.interrupt();
                }
                for (Squatter q : squatters) {
                    Socket s = q.current;
                    if (s != null) {
                        s.close();
                    }
                }
                for (Thread t : threads) {
                    t.join(TimeUnit.SECONDS.toMillis(10));
                }
                for (Socket s : crowd) {
                    s.close();
                }
            }
            // At the rate limit: one line per kind per second at most, each saying why.
            for (String line : server.stderr().strip().split("\n")) {
                assertTrue(line.matches("nbench server: monitor: closed a connection from 127\\.0\\.0\\.[12]:\\d+ "
                        + "(that did not authenticate within 10 s \\(\\d+ so far\\)|waiting to authenticate, for a "
                        + "newer one \\(32 may wait, 8 from one address; \\d+ closed unauthenticated so far\\)); only "
                        + "clients with the token should reach --monitor-bind( \\(\\d+ more since the last line\\))?"),
                        line);
            }
            assertTrue(server.stderr().contains("from 127.0.0.2:"), "the displaced one is named: " + server.stderr());
        }
    }
}
