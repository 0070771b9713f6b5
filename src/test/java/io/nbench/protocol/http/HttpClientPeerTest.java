package io.nbench.protocol.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.testkit.NbenchProcess;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTP client against peers that answer what a test scripts, through the jar's command line: a response
 * that is not HTTP/1.1 stops the run with one line naming the problem; conflicting target options are refused
 * with one line before anything connects.
 */
class HttpClientPeerTest {

    @TempDir
    Path dir;

    @Test
    void aResponseWithoutALengthStopsTheRunWithOneLineNamingTheProblem() throws Exception {
        byte[] reply = "HTTP/1.1 200 OK\r\nServer: scripted\r\n\r\nbody until close".getBytes(StandardCharsets.US_ASCII);
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread peer = new Thread(() -> answerEachHead(server, reply), "scripted-http");
            peer.setDaemon(true);
            peer.start();
            NbenchProcess.Result r = NbenchProcess.run(dir, "022", "client", "--impl", "nio", "--threads", "1",
                    "--msgs", "5", "--warmup", "0", "--iterations", "1",
                    "--url", "http://127.0.0.1:" + server.getLocalPort() + "/");
            assertEquals(1, r.exit(), r.all());
            String line = r.all().lines().filter(l -> l.contains("protocol mismatch")).findFirst().orElse(r.all());
            assertTrue(line.contains("the peer's response is not HTTP/1.1: it has neither Content-Length nor chunked "
                    + "encoding") && line.contains("(it sent 'HTTP/1.1 200 OK')"), line);
        }
    }

    /**
     * A server that answers every request 404: no response is timed (only a 2xx is), so the run measured nothing
     * (NO_DATA, exit 5), and its reason says that every response was an error status and which, not a bare
     * "no message completed".
     */
    @Test
    void everyResponseAnErrorStatusIsNoDataSayingWhichStatus() throws Exception {
        byte[] reply = "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread peer = new Thread(() -> answerEachHead(server, reply), "scripted-http");
            peer.setDaemon(true);
            peer.start();
            NbenchProcess.Result r = NbenchProcess.run(dir, "022", "client", "--impl", "nio", "--threads", "1",
                    "--msgs", "5", "--warmup", "1", "--iterations", "2", "--max-errors", "100%", "--out", "r.json",
                    "--url", "http://127.0.0.1:" + server.getLocalPort() + "/missing");
            assertEquals(5, r.exit(), r.all());
            String reason = "nothing measured: every response in the 2 measured iteration(s) was an error status (404 "
                    + "x10; status errors, which have no latency: only a 2xx response is timed): check the URL and the "
                    + "server";
            assertTrue(r.out().contains("\nResult: NO_DATA (exit code 5): " + reason + "\n"), r.out());
            assertTrue(r.out().contains("Responses by status (whole run): 404 x15\n"), r.out());
            com.fasterxml.jackson.databind.JsonNode c = io.nbench.testkit.ResultDocs.read(dir.resolve("r.json"))
                    .path("combinations").path(0);
            assertEquals("NO_DATA", c.path("status").asText());
            assertEquals(reason, c.path("reasons").path(0).asText());
        }
    }

    @Test
    void aHostOrPortOtherThanTheUrlsIsRefusedWithOneLine() throws Exception {
        NbenchProcess.Result r = NbenchProcess.run(dir, "022", "client", "--url", "http://127.0.0.1:1/x",
                "--port", "2");
        assertEquals(2, r.exit(), r.all());
        assertTrue(r.err().startsWith("nbench: --port 2 and --url's port 1 differ: give the port in --url only"),
                r.err());
        r = NbenchProcess.run(dir, "022", "client", "--url", "http://127.0.0.1:1/x", "--protocol", "framed");
        assertEquals(2, r.exit(), r.all());
        assertTrue(r.err().startsWith("nbench: --url is an HTTP URL but --protocol is framed"), r.err());
    }

    /** Answers every request head on every connection with {@code reply}, until the socket is closed. */
    private static void answerEachHead(ServerSocket server, byte[] reply) {
        while (!server.isClosed()) {
            try (Socket s = server.accept()) {
                InputStream in = s.getInputStream();
                int seen = 0;
                int b;
                while ((b = in.read()) >= 0) {
                    seen = b == '\n' ? seen + 1 : b == '\r' ? seen : 0;
                    if (seen == 2) {
                        s.getOutputStream().write(reply);
                        s.getOutputStream().flush();
                        seen = 0;
                    }
                }
            } catch (IOException closed) {
                // the client went away, or the test ended: accept the next or stop
            }
        }
    }
}
