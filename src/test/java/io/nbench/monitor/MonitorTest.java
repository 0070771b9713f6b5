package io.nbench.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nbench.cli.Main;
import io.nbench.client.monitor.MonitorClient;
import io.nbench.server.monitor.MonitorServer;
import io.nbench.testkit.ServerProcess;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * The monitor of a real {@code nbench server} process, spoken to over a socket the way {@code nc} does:
 * authentication first, bad tokens, line limits, the commands, and figures that match what a real client
 * sent. One server serves every test that does not need its own token source.
 */
class MonitorTest {

    private static final String TOKEN = "t0ken-for-tests";
    private static ServerProcess server;

    @BeforeAll
    static void startServer() throws Exception {
        server = ServerProcess.withMonitor(TOKEN, "--report-interval", "1s");
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close();
    }

    /** A connection as nc would make it: lines out, lines in. */
    private static final class Peer implements AutoCloseable {
        final Socket socket;
        final BufferedReader in;
        final OutputStream out;
        final String banner;

        Peer(int port) throws IOException {
            socket = new Socket("127.0.0.1", port);
            socket.setSoTimeout(30_000);
            in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            out = socket.getOutputStream();
            banner = in.readLine();
        }

        String ask(String line) throws IOException {
            send(line);
            return in.readLine();
        }

        void send(String line) throws IOException {
            out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
        }

        /** The lines of a multi-line answer, up to its "." line. */
        List<String> untilEnd() throws IOException {
            List<String> lines = new ArrayList<>();
            for (String l; !(l = in.readLine()).equals("."); ) {
                lines.add(l);
            }
            return lines;
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    @Test
    void everyCommandBeforeAuthIsRefusedAndTheConnectionClosed() throws Exception {
        for (String command : List.of("metrics", "metrics json", "reset", "help", "quit", "bogus")) {
            try (Peer p = new Peer(server.monitorPort)) {
                assertEquals(MonitorProtocol.BANNER, p.banner);
                assertEquals("ERR auth required: send 'auth TOKEN' first", p.ask(command), command);
                assertNull(p.in.readLine(), "closed after refusing " + command);
            }
        }
    }

    @Test
    void theRightTokenOpensEveryCommand() throws Exception {
        try (Peer p = new Peer(server.monitorPort)) {
            assertEquals("OK", p.ask("auth " + TOKEN));
            p.send("help");
            List<String> help = p.untilEnd();
            assertEquals(5, help.size(), help.toString());
            assertTrue(help.get(0).startsWith("metrics "), help.toString());
            p.send("metrics");
            List<String> report = p.untilEnd();
            assertTrue(report.get(0).startsWith("server metrics since reset, "), report.toString());
            assertTrue(report.stream().anyMatch(l -> l.startsWith("  processing, µs")), report.toString());
            assertTrue(p.ask("metrics json").startsWith("{\"format\":\"nbench-server-metrics-1\""));
            assertEquals("ERR unknown command 'stats now': try help", p.ask("stats now"));
            assertEquals("ERR already authenticated", p.ask("auth " + TOKEN));
            assertEquals("BYE", p.ask("quit"));
            assertNull(p.in.readLine(), "closed after quit");
        }
        assertTrue(server.lines().stream().noneMatch(l -> l.contains(TOKEN)), "the token is never printed");
    }

    @Test
    void atMostFourSessionsAreServedAtOnce() throws Exception {
        List<Peer> open = new ArrayList<>();
        try {
            // The server is shared: a session an earlier test closed gives its place back a moment after (on its
            // own thread), so take the four again until all four are in at once.
            long freeBy = System.nanoTime() + 30_000_000_000L;
            while (true) {
                for (int i = 0; i < MonitorServer.MAX_CONNECTIONS; i++) {
                    open.add(new Peer(server.monitorPort));
                }
                List<String> answers = new ArrayList<>();
                for (Peer p : open) {
                    answers.add(p.ask("auth " + TOKEN));
                }
                if (answers.stream().allMatch("OK"::equals)) {
                    break;
                }
                for (Peer p : open) {
                    p.close();
                }
                open.clear();
                assertTrue(System.nanoTime() < freeBy, "the monitor's four sessions never came free: " + answers);
                Thread.sleep(20);
            }
            // A fifth connection waits to authenticate as any other (the waiting room is apart from the sessions);
            // with the token, it is told there is no session free, and closed.
            try (Peer fifth = new Peer(server.monitorPort)) {
                assertEquals(MonitorProtocol.BANNER, fifth.banner);
                assertEquals("ERR too many monitor connections (4 sessions at most): close one first",
                        fifth.ask("auth " + TOKEN));
                assertNull(fifth.in.readLine());
            }
            assertEquals("BYE", open.get(0).ask("quit"));
            assertNull(open.get(0).in.readLine());
        } finally {
            for (Peer p : open) {
                p.close();
            }
        }
        // The sessions come back as connections close (their threads release them a moment after): await one.
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (true) {
            try (Peer again = new Peer(server.monitorPort)) {
                if ("OK".equals(again.ask("auth " + TOKEN))) {
                    break;
                }
            }
            assertTrue(System.nanoTime() < deadline, "no session came back");
            LockSupport.parkNanos(10_000_000L); // a retry, not a measurement
        }
    }

    @Test
    void aBadTokenIsAnsweredAfterTheDelayAndClosed() throws Exception {
        try (Peer p = new Peer(server.monitorPort)) {
            long start = System.nanoTime();
            assertEquals("ERR bad token: connection closed", p.ask("auth " + TOKEN + "x"));
            assertTrue(System.nanoTime() - start >= MonitorServer.BAD_TOKEN_DELAY.toNanos(), "answered after the delay");
            assertNull(p.in.readLine());
        }
        try (Peer p = new Peer(server.monitorPort)) {
            assertEquals("ERR bad token: connection closed", p.ask("auth"), "no token at all");
            assertNull(p.in.readLine());
        }
    }

    @Test
    void aLineLongerThanTheLimitIsRefusedAndClosedBeforeAndAfterAuth() throws Exception {
        String longLine = "a".repeat(MonitorProtocol.MAX_LINE + 1);
        try (Peer p = new Peer(server.monitorPort)) {
            assertEquals("ERR line too long: at most 1024 bytes", p.ask(longLine));
            assertNull(p.in.readLine());
        }
        try (Peer p = new Peer(server.monitorPort)) {
            assertEquals("OK", p.ask("auth " + TOKEN));
            assertTrue(p.ask("metrics " + "x".repeat(MonitorProtocol.MAX_LINE - 8)).startsWith("ERR unknown command"),
                    "exactly the limit is a line");
            assertEquals("ERR line too long: at most 1024 bytes", p.ask("metrics " + longLine));
            assertNull(p.in.readLine());
        }
    }

    @Test
    void metricsJsonCountsWhatARealClientSentAndResetKeepsTheCumulativeFigures() throws Exception {
        JsonNode before = json();
        StringWriter out = new StringWriter();
        int code = Main.run(new String[] {"client", "--impl", "nio", "--port", Integer.toString(server.port),
            "--threads", "2", "--msgs", "500", "--warmup", "1", "--iterations", "2", "--size", "101",
            "--response-size", "17"}, new PrintWriter(out), new PrintWriter(new StringWriter()));
        assertEquals(0, code, out.toString());
        JsonNode after = json();
        long sent = 2 * 500 * 3;
        assertEquals(sent, after.at("/sinceStart/requests").asLong() - before.at("/sinceStart/requests").asLong());
        assertEquals(sent, after.at("/sinceStart/requestBytes/count").asLong()
                - before.at("/sinceStart/requestBytes/count").asLong());
        assertEquals(101 + 16, after.at("/sinceStart/requestBytes/max").asLong(), "payload and request frame header");
        assertEquals(17 + 13, after.at("/sinceStart/responseBytes/max").asLong(), "payload and response frame header");
        assertEquals(2, after.at("/sinceStart/connections").asLong() - before.at("/sinceStart/connections").asLong());
        try (Peer p = new Peer(server.monitorPort)) {
            assertEquals("OK", p.ask("auth " + TOKEN));
            assertTrue(p.ask("reset").startsWith("OK reset"));
        }
        JsonNode reset = json();
        assertEquals(0, reset.at("/sinceReset/requests").asLong());
        assertEquals(0, reset.at("/sinceReset/requestBytes/count").asLong());
        assertEquals(after.at("/sinceStart/requests").asLong(), reset.at("/sinceStart/requests").asLong(),
                "reset leaves the cumulative figures alone");
    }

    @Test
    void theReportIntervalLineComesEverySecond() throws Exception {
        String first = server.awaitLine(l -> l.matches("nbench server: \\+\\d+\\.\\ds .* req/s, processing .*"));
        String next = server.awaitLine(l -> l.startsWith("nbench server: +"));
        assertTrue(next.contains("rejected 0, connections "), next);
        assertTrue(!first.equals(next), "a new line each interval");
    }

    @Test
    void theTokenFileWinsOverTheEnvironmentAndAGeneratedTokenIsPrintedOnce(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("token");
        Files.writeString(file, "from-the-file\n");
        try (ServerProcess s = ServerProcess.start(Map.of(MonitorToken.ENV, "from-env"), "--impl", "nio", "--port", "0",
                "--monitor-port", "0", "--monitor-token-file", file.toString())) {
            assertEquals("  monitor token: from --monitor-token-file", s.awaitLine(l -> l.contains("monitor token")));
            try (Peer p = new Peer(s.monitorPort)) {
                assertEquals("OK", p.ask("auth from-the-file"));
            }
            try (Peer p = new Peer(s.monitorPort)) {
                assertTrue(p.ask("auth from-env").startsWith("ERR bad token"));
            }
        }
        try (ServerProcess s = ServerProcess.start(Map.of(), "--impl", "nio", "--port", "0", "--monitor-port", "0")) {
            String line = s.awaitLine(l -> l.contains("monitor token"));
            String token = line.replaceFirst("^  monitor token: (\\S+) \\(generated.*$", "$1");
            assertTrue(token.matches("[0-9a-f]{48}"), line);
            try (Peer p = new Peer(s.monitorPort)) {
                assertEquals("OK", p.ask("auth " + token));
                assertTrue(p.ask("metrics json").startsWith("{"));
            }
            assertEquals(1, s.lines().stream().filter(l -> l.contains(token)).count(), "printed once");
        }
    }

    /** As ssh does with a private key: a token file others can read is named, once, on stderr (and still used). */
    @Test
    @org.junit.jupiter.api.condition.EnabledOnOs({OS.LINUX,
        OS.MAC})
    void aTokenFileOthersCanReadIsUsedWithOneWarning(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("token");
        Files.writeString(file, "readable-token\n");
        String warning = "nbench server: warning: --monitor-token-file " + file + " can be read by other users "
                + "(rw-r--r--): anyone on this machine may use the monitor; make it private with chmod 600 " + file;
        for (String permissions : List.of("rw-r--r--", "rw-------")) {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(permissions));
            boolean shared = permissions.equals("rw-r--r--");
            try (ServerProcess s = ServerProcess.start(Map.of(), "--impl", "nio", "--port", "0", "--monitor-port", "0",
                    "--monitor-token-file", file.toString())) {
                s.awaitLine(l -> l.contains("monitor token"));
                try (Peer p = new Peer(s.monitorPort)) {
                    assertEquals("OK", p.ask("auth readable-token"), "the token is used either way");
                }
                long deadline = System.nanoTime() + 30_000_000_000L;
                while (shared && s.stderr().isEmpty() && System.nanoTime() < deadline) {
                    LockSupport.parkNanos(10_000_000L); // awaiting the stderr pump
                }
                assertEquals(shared ? warning + "\n" : "", s.stderr(), permissions);
            }
        }
    }

    private static JsonNode json() throws Exception {
        try (MonitorClient c = MonitorClient.connect("127.0.0.1", server.monitorPort, MonitorToken.from(null,
                Map.of(MonitorToken.ENV, TOKEN)), Duration.ofSeconds(30))) {
            return new ObjectMapper().readTree(c.metricsJson());
        }
    }
}
