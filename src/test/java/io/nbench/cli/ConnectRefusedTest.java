package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.client.ExitCode;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A port nobody listens on: reported at once, as wrk does, unless the user asks to wait ({@code --connect-retry}). */
class ConnectRefusedTest {

    /** A port that was free a moment ago: bound, then closed, so a connect to it is refused. */
    private static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Test
    void aRefusedConnectFailsAtOnceNamingTheAddressAndTheFix() throws IOException {
        int port = closedPort();
        CliTest.Outcome o = refused(port);
        // Timed the second time: the first includes loading the client's classes (Netty's), which is not waiting.
        long start = System.nanoTime();
        assertEquals(ExitCode.COULD_NOT_RUN, refused(port).code());
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertEquals(ExitCode.COULD_NOT_RUN, o.code(), o.err() + o.out());
        assertTrue(millis < 1_000, "refused after " + millis + " ms: " + o.err());
        List<String> lines = o.err().lines().toList();
        assertEquals(1, lines.size(), o.err());
        String line = lines.get(0);
        assertTrue(line.contains("127.0.0.1:" + port) && line.contains("is a server running")
                && line.contains("--connect-retry"), line);
    }

    private static CliTest.Outcome refused(int port) {
        return CliTest.run("client", "--port", Integer.toString(port), "--threads", "1", "--msgs", "10",
                "--warmup", "0", "--iterations", "1", "--quiet");
    }
}
