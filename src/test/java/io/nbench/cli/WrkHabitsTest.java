package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nbench.client.ExitCode;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * wrk's, ab's and oha's habits on {@code nbench client}: {@code -n} (requests in all), {@code -d} (one run of that
 * long), {@code -c}, {@code -t}, and the plan stated before the run. The server is a counting HTTP/1.1 server
 * written here: it answers every request 200 with an empty body and keeps the connection.
 */
class WrkHabitsTest {

    private static ServerSocket listener;
    private static final AtomicLong REQUESTS = new AtomicLong();

    @BeforeAll
    static void countingServer() throws IOException {
        listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> {
            while (!listener.isClosed()) {
                try {
                    Socket s = listener.accept();
                    Thread t = new Thread(() -> serve(s), "counting-http-conn");
                    t.setDaemon(true);
                    t.start();
                } catch (IOException e) {
                    return;
                }
            }
        }, "counting-http-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    @AfterAll
    static void stop() throws IOException {
        listener.close();
    }

    /** Counts each request head (and skips a Content-Length body), answering each one 200, keep-alive. */
    private static void serve(Socket s) {
        byte[] ok = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        try (s; InputStream in = new BufferedInputStream(s.getInputStream());
             OutputStream out = s.getOutputStream()) {
            StringBuilder line = new StringBuilder();
            long body = 0;
            boolean blank = true;
            int b;
            while ((b = in.read()) >= 0) {
                if (b != '\n') {
                    if (b != '\r') {
                        line.append((char) b);
                    }
                    continue;
                }
                String l = line.toString();
                line.setLength(0);
                if (!l.isEmpty()) {
                    if (l.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                        body = Long.parseLong(l.substring(15).strip());
                    }
                    blank = false;
                    continue;
                }
                if (blank) {
                    continue; // a stray CRLF between requests
                }
                in.skipNBytes(body);
                body = 0;
                blank = true;
                REQUESTS.incrementAndGet();
                out.write(ok);
                out.flush();
            }
        } catch (IOException e) {
            // the client closed: nothing to answer
        }
    }

    private static String url() {
        return "http://127.0.0.1:" + listener.getLocalPort() + "/";
    }

    @Test
    void minusNSendsExactlyThatManyRequestsInAll() {
        long before = REQUESTS.get();
        CliTest.Outcome o = CliTest.run("client", "--url", url(), "-n", "1000", "-c", "10");
        assertEquals(ExitCode.OK, o.code(), o.err() + o.out());
        assertEquals(1000, REQUESTS.get() - before, "requests the server received");
        assertTrue(o.out().contains("plan: 1,000 requests over 10 connections"), o.out());
        assertTrue(o.out().contains("iterations: 0 warmup + 1 measured"), o.out());

        // Sender threads (not I/O threads) send: 1,001 over 3 threads is 334 + 334 + 333.
        before = REQUESTS.get();
        o = CliTest.run("client", "--url", url(), "-n", "1001", "-t", "3", "-c", "3", "--driver", "threads",
                "--quiet");
        assertEquals(ExitCode.OK, o.code(), o.err() + o.out());
        assertEquals(1001, REQUESTS.get() - before, "requests the server received");
    }

    @Test
    void minusDIsOneMeasuredRunWithoutWarmup(@TempDir Path dir) throws IOException {
        Path out = dir.resolve("r.json");
        CliTest.Outcome o = CliTest.run("client", "--url", url(), "-d", "1s", "-c", "2", "-t", "1",
                "--out", out.toString());
        assertEquals(ExitCode.OK, o.code(), o.err() + o.out());
        assertTrue(o.out().contains("plan: 1 measured run of 1 s, no warmup"), o.out());
        JsonNode iterations = new ObjectMapper().readTree(out.toFile()).at("/combinations/0/iterations");
        assertEquals(1, iterations.size(), iterations.toString());
        assertTrue(!iterations.get(0).path("warmup").asBoolean(true), iterations.toString());
    }

    @Test
    void minusNOrDWithTheIterationOptionsIsAUsageError() {
        CliTest.Outcome o = CliTest.run("client", "--url", url(), "-n", "10", "--msgs", "5");
        assertEquals(ExitCode.USAGE, o.code(), o.err());
        assertTrue(o.err().contains("-n plans the whole run") && o.err().contains("--msgs"), o.err());
        o = CliTest.run("client", "--url", url(), "-d", "1s", "--iteration-time", "1s");
        assertEquals(ExitCode.USAGE, o.code(), o.err());
        assertTrue(o.err().contains("-d plans the whole run") && o.err().contains("--iteration-time"), o.err());
    }
}
