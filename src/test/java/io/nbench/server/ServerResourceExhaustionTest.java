package io.nbench.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.protocol.Framed;
import io.nbench.testkit.NbenchProcess;
import io.nbench.transport.TransportRegistry;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The server process at the edge of its resources, each in a child JVM as a user runs it: out of file
 * descriptors it goes on (one line per cause, serving again once descriptors free up); out of memory it
 * cannot, so it exits 1 with one line instead of keeping a dead port open.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ServerResourceExhaustionTest {

    private static final Pattern LISTENING = Pattern.compile("listening on (\\S+):(\\d+)");
    private static final byte[] REQUEST = hex("0000000f00000003000000000000000161 6263");
    private static final byte[] RESPONSE = hex("0000000c000000000000000100616263");

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"netty", "mina", "nio", "blocking", "vthreads"})
    void servesAgainAfterRunningOutOfDescriptors(String impl) throws Exception {
        assumeAvailable(impl);
        Path err = dir.resolve("stderr");
        // An explicit --max-connections above what 96 descriptors allow: by default the server refuses
        // connections before it runs out (DescriptorExhaustionTest), and this is about running out anyway.
        Process p = start(List.of(), "ulimit -n 96; ", impl, err, "--max-connections", "1000");
        try {
            int port = port(p, err);
            // One request first: the test runs the server from class directories, where loading a class
            // takes a descriptor (from the jar it does not), so its serving classes are loaded before
            // the descriptors run out.
            try (Socket first = connect(port)) {
                exchange(first);
            }
            List<Socket> held = new ArrayList<>();
            try {
                // More connections than the server has descriptors for: the kernel completes them (the
                // listen backlog), the server can accept only some of them.
                for (int i = 0; i < 150; i++) {
                    held.add(connect(port));
                }
                // Those it accepted are served while it cannot accept more.
                exchange(held.get(0));
            } finally {
                for (Socket s : held) {
                    s.close();
                }
            }
            // Descriptors are free again: a new client is served (the server may still be backing off).
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            IOException last = null;
            boolean served = false;
            while (!served && System.nanoTime() < deadline) {
                try (Socket s = connect(port)) {
                    exchange(s);
                    served = true;
                } catch (IOException e) {
                    last = e;
                    Thread.sleep(200);
                }
            }
            assertTrue(served, impl + " did not serve a new client after its connections closed: " + last
                    + "; stderr: " + Files.readString(err));
        } finally {
            p.destroy();
            p.waitFor(10, TimeUnit.SECONDS);
            p.destroyForcibly();
        }
        List<String> lines = Files.readAllLines(err);
        assertTrue(lines.size() <= 2, impl + " wrote " + lines.size() + " lines to stderr; at most one per cause per "
                + "10 s expected: " + String.join("\n", lines.subList(0, Math.min(lines.size(), 10))));
        for (String line : lines) {
            assertTrue(line.startsWith("nbench server: cannot accept connections: ") && line.contains("Too many open files"), line);
        }
    }

    /**
     * What --max-frame allows per connection must not be what a server holds per connection: 16 peers each
     * send 6 MiB of a 16 MiB request and stop, 16 more each ask for a 16 MiB response with a 16-byte
     * request and never read. Held whole, that is 96 MiB of requests and 256 MiB of responses; a server
     * with a 64 MiB heap (and so 64 MiB of direct memory) must hold it, keep serving and log nothing.
     */
    @ParameterizedTest
    @ValueSource(strings = {"netty", "mina", "nio", "blocking", "vthreads"})
    void holdsLittleForPartialLargeRequestsAndUnreadLargeResponses(String impl) throws Exception {
        assumeAvailable(impl);
        Path err = dir.resolve("stderr");
        Process p = start(List.of("-Xmx64m"), "", impl, err);
        List<Socket> held = new ArrayList<>();
        try {
            int port = port(p, err);
            byte[] partial = new byte[Framed.REQUEST_HEADER + (6 << 20)];
            ByteBuffer.wrap(partial).putInt(Framed.requestFrameLength(16 << 20)).putInt(16 << 20).putLong(1);
            byte[] large = requestsForResponsesOf(16 << 20, 1);
            for (int i = 0; i < 16; i++) {
                Socket s = connect(port);
                held.add(s);
                s.getOutputStream().write(partial);
                Socket t = connect(port);
                held.add(t);
                t.getOutputStream().write(large);
            }
            // Every byte was taken, so the server read the partial requests (a kernel buffer holds less
            // than 6 MiB). Still serving: a new client gets its answer.
            try (Socket s = connect(port)) {
                exchange(s);
            }
            assertTrue(p.isAlive(), impl + " exited: " + Files.readString(err));
        } finally {
            for (Socket s : held) {
                s.close();
            }
            p.destroy();
            p.waitFor(10, TimeUnit.SECONDS);
            p.destroyForcibly();
        }
        assertEquals("", Files.readString(err), impl + " wrote to stderr");
    }

    /**
     * Out of memory (requests for 64 KiB responses that nobody reads, on 100 connections, against a
     * 48 MiB heap and, for Netty's direct buffers, 2 MiB of direct memory): one line, exit 1.
     */
    @ParameterizedTest
    @ValueSource(strings = {"netty", "mina"})
    void exitsWithOneLineWhenOutOfMemory(String impl) throws Exception {
        Path err = dir.resolve("stderr");
        // Without --max-connections the default limit, from the same memory, would refuse most of them.
        Process p = start(List.of("-Xmx48m", "-XX:MaxDirectMemorySize=2m"), "", impl, err, "--max-connections", "1000");
        List<Socket> held = new ArrayList<>();
        try {
            int port = port(p, err);
            byte[] requests = requestsForResponsesOf(64 << 10, 100);
            for (int i = 0; i < 100 && p.isAlive(); i++) {
                try {
                    Socket s = connect(port);
                    held.add(s);
                    s.getOutputStream().write(requests);
                } catch (IOException e) {
                    break; // the server is gone already
                }
            }
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), impl + " still running after an OutOfMemoryError; stderr: "
                    + Files.readString(err));
        } finally {
            for (Socket s : held) {
                s.close();
            }
            p.destroyForcibly();
        }
        List<String> lines = Files.readAllLines(err);
        assertEquals(1, p.exitValue(), String.join("\n", lines));
        assertEquals(1, lines.size(), String.join("\n", lines));
        // Naming the thread, unless other threads took the memory the line needed.
        assertTrue(lines.get(0).startsWith("nbench server: out of memory"), lines.get(0));
        assertTrue(lines.get(0).contains("NBENCH_JAVA_OPTS=-Xmx"), lines.get(0));
    }

    /**
     * --max-connections 3: a fourth connection is closed at once and logged once; the three are served;
     * when one closes, a new one is served; the metrics count the refusal.
     */
    @ParameterizedTest
    @ValueSource(strings = {"netty", "mina", "nio", "blocking", "vthreads"})
    void refusesConnectionsOverMaxConnections(String impl) throws Exception {
        assumeAvailable(impl);
        Path err = dir.resolve("stderr");
        Process p = start(List.of(), "", impl, err, "--max-connections", "3");
        // Read here rather than drained: the server writes two lines, then its metrics when it stops.
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String metrics;
        try {
            String banner = out.readLine();
            Matcher m = banner == null ? null : LISTENING.matcher(banner);
            assertTrue(m != null && m.find(), "the server did not start: " + banner + "; " + Files.readString(err));
            assertTrue(banner.contains(", max connections 3 (--max-connections)"), banner);
            int port = Integer.parseInt(m.group(2));
            List<Socket> three = new ArrayList<>();
            try {
                for (int i = 0; i < 3; i++) {
                    three.add(connect(port));
                    exchange(three.get(i));
                }
                try (Socket fourth = connect(port)) {
                    fourth.getOutputStream().write(REQUEST);
                    int first;
                    try {
                        first = fourth.getInputStream().read();
                    } catch (SocketException reset) {
                        first = -1;
                    }
                    assertEquals(-1, first, "the fourth connection was answered");
                }
                exchange(three.get(0));
            } finally {
                three.get(0).close();
            }
            // One slot is free once the server has seen the close: a new client is served.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            boolean served;
            while (!(served = answers(port)) && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertTrue(served, impl + " refused a connection after one of the three closed");
            for (Socket s : three) {
                s.close();
            }
        } finally {
            p.toHandle().destroy(); // SIGTERM, keeping its output readable (Process.destroy closes it)
            assertTrue(p.waitFor(20, TimeUnit.SECONDS));
            metrics = String.join("\n", out.lines().toList());
        }
        List<String> lines = Files.readAllLines(err);
        assertEquals(1, lines.size(), String.join("\n", lines));
        assertTrue(lines.get(0).startsWith("nbench server: refused a connection: 3 are open, the most --max-connections "
                + "allows"), lines.get(0));
        assertTrue(metrics.contains("refused (--max-connections) "), metrics);
    }

    /**
     * The total bound: 150 peers that ask for 64 KiB responses and never read, against a server with a
     * 64 MiB heap and no --max-connections. Every connection may hold what its transport allows; where 150
     * of those do not fit in the heap (mina: 1 MiB of queued writes each, a default limit of 40) the limit
     * must refuse the rest, and the server says so; where they fit, nothing is refused. Either way the
     * server stays up, logs only refusals and serves again when the peers are gone.
     */
    @ParameterizedTest
    @ValueSource(strings = {"netty", "mina", "nio", "blocking", "vthreads"})
    void boundsWhatManyPeersThatNeverReadCanMakeItHold(String impl) throws Exception {
        assumeAvailable(impl);
        int limit;
        Path err = dir.resolve("stderr");
        Process p = start(List.of("-Xmx64m"), "", impl, err);
        List<Socket> held = new ArrayList<>();
        try {
            int port = port(p, err);
            Matcher m = Pattern.compile("max connections ([0-9,]+) ").matcher(banner);
            assertTrue(m.find(), "the banner states the default limit: " + banner);
            limit = Integer.parseInt(m.group(1).replace(",", ""));
            byte[] requests = requestsForResponsesOf(64 << 10, 100);
            for (int i = 0; i < 150; i++) {
                Socket s = connect(port);
                held.add(s);
                try {
                    s.getOutputStream().write(requests);
                } catch (IOException e) {
                    // refused and closed already
                }
            }
            for (Socket s : held) {
                s.close();
            }
            held.clear();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            boolean served;
            while (!(served = answers(port)) && p.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertTrue(served, impl + " does not serve after the peers left; stderr: " + Files.readString(err));
        } finally {
            for (Socket s : held) {
                s.close();
            }
            p.destroy();
            p.waitFor(10, TimeUnit.SECONDS);
            p.destroyForcibly();
        }
        List<String> lines = Files.readAllLines(err);
        for (String line : lines) {
            assertTrue(line.startsWith("nbench server: refused a connection: "), line);
        }
        assertEquals(limit < 150, !lines.isEmpty(), impl + " with a default limit of " + limit + " for 150 peers: " + lines);
    }

    private static void assumeAvailable(String impl) {
        var a = TransportRegistry.load().get(impl).availability();
        Assumptions.assumeTrue(a.available(), a.reason());
    }

    /** {@code nbench server --impl IMPL --port 0} in a child JVM, through bash for its ulimit. */
    private static Process start(List<String> jvmFlags, String shellPrefix, String impl, Path err, String... serverArgs)
            throws IOException {
        List<String> command = new ArrayList<>(List.of("bash", "-c", shellPrefix + "exec \"$@\"", "bash"));
        command.addAll(NbenchProcess.command(jvmFlags));
        command.addAll(List.of("server", "--impl", impl, "--port", "0"));
        command.addAll(List.of(serverArgs));
        return new ProcessBuilder(command).redirectError(err.toFile()).start();
    }

    /** The first line of the server started last (its address and limits), read by {@link #port}. */
    private static volatile String banner;

    private static int port(Process p, Path err) throws IOException {
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        banner = line;
        Matcher m = line == null ? null : LISTENING.matcher(line);
        assertTrue(m != null && m.find(), "the server did not start: " + line + "; stderr: " + Files.readString(err));
        // Keep draining its output so that it never blocks on a full pipe.
        Thread drain = new Thread(() -> {
            try {
                while (out.readLine() != null) {
                    // discard
                }
            } catch (IOException e) {
                // gone
            }
        }, "test-drain");
        drain.setDaemon(true);
        drain.start();
        return Integer.parseInt(m.group(2));
    }

    private static Socket connect(int port) throws IOException {
        Socket s = new Socket();
        s.setSoTimeout(10_000);
        s.connect(new InetSocketAddress("127.0.0.1", port), 3_000);
        return s;
    }

    /** {@code count} pipelined requests without payload, each asking for a response of {@code length} bytes. */
    private static byte[] requestsForResponsesOf(int length, int count) {
        ByteBuffer requests = ByteBuffer.allocate(count * Framed.REQUEST_HEADER);
        for (int k = 0; k < count; k++) {
            requests.putInt(Framed.MIN_REQUEST_FRAME).putInt(length).putLong(k);
        }
        return requests.array();
    }

    /** Whether a new connection is answered (not closed at once, as one over --max-connections is). */
    private static boolean answers(int port) {
        try (Socket s = connect(port)) {
            s.getOutputStream().write(REQUEST);
            return Arrays.equals(RESPONSE, s.getInputStream().readNBytes(RESPONSE.length));
        } catch (IOException e) {
            return false;
        }
    }

    private static void exchange(Socket s) throws IOException {
        s.getOutputStream().write(REQUEST);
        assertArrayEquals(RESPONSE, s.getInputStream().readNBytes(RESPONSE.length));
    }

    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s.replace(" ", ""));
    }
}
