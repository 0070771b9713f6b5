package io.nbench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.transport.ServerEvents;
import java.io.BufferedWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The server's counters and its rate-limited protocol-error log. */
class ServerMetricsTest {

    @Test
    void countsAndLogsProtocolErrorsOneLineAtMostPerSecond() {
        StringWriter log = new StringWriter();
        ServerMetrics m = new ServerMetrics(new PrintWriter(log));
        m.protocolError("/127.0.0.1:5000", "request frameLength 11 < 12");
        m.protocolError("/127.0.0.1:5001", "responseLength 2147483648 > --max-frame 16777216");
        m.protocolError("/127.0.0.1:5002", "request frameLength 0 < 12");
        assertEquals(3, m.protocolErrors(), "every error is counted");
        assertEquals(1, log.toString().lines().count(), "logged once, the others within the second suppressed: " + log);
        assertTrue(log.toString().contains("protocol error from /127.0.0.1:5000: request frameLength 11 < 12"), log.toString());
    }

    @Test
    void countsConnectionsRequestsAndBytes() {
        ServerMetrics m = new ServerMetrics(new PrintWriter(new StringWriter()));
        m.connectionOpened();
        m.connectionOpened();
        m.connectionClosed();
        m.requestServed(28, 25);
        m.requestServed(28, 0);
        assertEquals(2, m.totalConnections());
        assertEquals(1, m.openConnections());
        assertEquals(2, m.requests());
        StringWriter out = new StringWriter();
        m.print(new PrintWriter(out));
        assertTrue(out.toString().contains("connections 2 total (1 open), requests 2, bytes in 56, bytes out 25"), out.toString());
    }

    @Test
    void refusesConnectionsOverTheLimitUntilOneCloses() {
        StringWriter log = new StringWriter();
        ServerMetrics m = new ServerMetrics(new PrintWriter(log), 2, "; HINT");
        assertTrue(m.connectionOpened());
        assertTrue(m.connectionOpened());
        assertEquals(false, m.connectionOpened());
        assertEquals(false, m.connectionOpened());
        m.connectionClosed();
        assertTrue(m.connectionOpened());
        assertEquals(false, m.connectionOpened());
        assertEquals(3, m.totalConnections(), "refused connections are not counted as served");
        assertEquals(2, m.openConnections());
        assertEquals(3, m.refusedConnections());
        assertEquals("nbench server: refused a connection: 2 are open, the most --max-connections allows; HINT",
                log.toString().strip(), "one line per 10 s");
        StringWriter out = new StringWriter();
        m.print(new PrintWriter(out));
        assertTrue(out.toString().contains("refused (--max-connections) 3"), out.toString());
    }

    /** A clock moved by hand, and a log that shows only what was flushed. */
    private static final class Fixture {
        final long[] now = {1_000_000_000_000L};
        final StringWriter flushed = new StringWriter();
        final ServerMetrics m;

        Fixture(int maxConnections) {
            m = new ServerMetrics(new PrintWriter(new BufferedWriter(flushed, 1 << 16)), maxConnections, "; HINT",
                    () -> now[0], false);
        }

        void advanceMillis(long ms) {
            now[0] += ms * 1_000_000L;
        }

        List<String> lines() {
            return flushed.toString().lines().toList();
        }
    }

    @Test
    void protocolErrorsAreLoggedAtMostOncePerSecondWithTheCountSuppressedBetween() {
        Fixture f = new Fixture(Integer.MAX_VALUE);
        f.m.protocolError("a", "first");
        f.m.protocolError("b", "second");
        f.advanceMillis(999);
        f.m.protocolError("c", "third");
        assertEquals(List.of("nbench server: protocol error from a: first; connection closed"), f.lines(),
                "flushed at once, then nothing for a second");
        f.advanceMillis(1);
        f.m.protocolError("d", "fourth");
        assertEquals("nbench server: protocol error from d: fourth; connection closed (2 more since the last line)",
                f.lines().get(1));
        f.advanceMillis(1_000);
        f.m.protocolError("e", "fifth");
        assertEquals("nbench server: protocol error from e: fifth; connection closed", f.lines().get(2));
        assertEquals(5, f.m.protocolErrors());
    }

    @Test
    void troubleIsLoggedAtMostOncePer10SecondsPerCause() {
        Fixture f = new Fixture(Integer.MAX_VALUE);
        f.m.trouble("accept", "cannot accept: A");
        f.m.trouble("other", "other: B");
        f.advanceMillis(9_999);
        f.m.trouble("accept", "cannot accept: C");
        f.m.trouble("accept", "cannot accept: D");
        assertEquals(List.of("nbench server: cannot accept: A", "nbench server: other: B"), f.lines());
        f.advanceMillis(1);
        f.m.trouble("accept", "cannot accept: E");
        assertEquals("nbench server: cannot accept: E (2 more since the last line)", f.lines().get(2));
    }

    @Test
    void metricsLineHasTheElapsedTimeAndEveryCounter() {
        Fixture f = new Fixture(1);
        assertTrue(f.m.connectionOpened());
        assertEquals(false, f.m.connectionOpened());
        f.m.echoed(100);
        f.m.requestServed(28, 25);
        f.m.idleClosed();
        f.m.idleClosed();
        f.m.protocolError("x", "bad");
        assertEquals(2, f.m.idleClosedConnections());
        f.advanceMillis(12_345);
        StringWriter out = new StringWriter();
        f.m.print(new PrintWriter(new BufferedWriter(out, 1 << 16)));
        assertEquals("server metrics after 12.3 s: connections 1 total (1 open), requests 1, bytes in 128, bytes out 125, "
                + "protocol errors 1, idle closed 2, refused (--max-connections) 1", out.toString().lines().findFirst().get());
        Fixture none = new Fixture(5);
        StringWriter out2 = new StringWriter();
        none.m.print(new PrintWriter(out2));
        assertTrue(out2.toString().lines().findFirst().get().endsWith("idle closed 0"), "no refusal, no refusal figure: " + out2);
    }

    /** The contract's measurement events, called as a transport's runtime would. */
    @Test
    void processingQueueWaitAndRejectionsReachTheSnapshotAndTheReport() {
        Fixture f = new Fixture(Integer.MAX_VALUE);
        ServerEvents events = f.m;
        events.requestServed(117, 30);
        events.processed(25_000);
        events.queueWait(4_000);
        events.requestReceived(117);
        events.requestRejected(13);
        f.advanceMillis(2_000);
        var s = f.m.snapshot();
        assertEquals(1, s.sinceStart().requests(), "a rejected request is not a served one");
        assertEquals(1, s.sinceStart().rejected());
        assertEquals(234, s.sinceStart().bytesIn());
        assertEquals(43, s.sinceStart().bytesOut());
        assertEquals(25_000, s.sinceStartHistograms().processing().getMaxValue(), 25);
        assertEquals(4_000, s.sinceStartHistograms().queueWait().getMaxValue(), 4);
        assertEquals(1, s.sinceStartHistograms().requestSize().getTotalCount(), "sizes of served requests only");
        f.m.reset();
        assertEquals(0, f.m.snapshot().sinceReset().rejected());
        assertEquals(1, f.m.snapshot().sinceStart().rejected());
        StringWriter out = new StringWriter();
        f.m.print(new PrintWriter(out));
        assertTrue(out.toString().contains("rejected (pool queue full): 1 (1/s)"), out.toString());
        assertTrue(out.toString().lines().anyMatch(l -> l.matches("  processing, µs .*\\s1\\s+25\\.0\\s.*")), out.toString());
    }
}
