package io.nbench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
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
}
