package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.client.ExitCode;
import io.nbench.testkit.ScriptedServer;
import io.nbench.testkit.Transports;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A server that sends more responses than it was asked for: every client transport must stop the run with one line
 * naming the connection and what arrived, never time the extra response (HTTP carries no id: matched first-in
 * first-out, it would complete the next request, often one sent after its bytes were read) nor call it "late"
 * (a late response answers a request that timed out; here none did). Before the fix each case ran to its end:
 * exit 0, PASS, latencies of 0.0 µs and the extra responses counted as "late responses (after their timeout)".
 */
class UnsolicitedResponseTest {

    static Stream<String> clients() {
        return Transports.network().stream();
    }

    private static final String HTTP_EXTRA =
            "(it sent a response with status 200 when every request written before it was read had its answer)";
    private static final byte[] OK = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".getBytes(StandardCharsets.US_ASCII);
    /** The line names the problem, the connection and what arrived. */
    private static final Pattern NAMES_THE_CONNECTION =
            Pattern.compile("the server sent a response no request asked for on connection [01] \\(it sent .+\\)");

    @ParameterizedTest(name = "{0}")
    @MethodSource("clients")
    void anHttpServerAnsweringEveryRequestTwiceIsAnErrorNotAFigure(String impl) throws Exception {
        try (HttpPeer peer = new HttpPeer(false, 2)) {
            assertStoppedByTheExtraResponse(client(impl, "--url", "http://127.0.0.1:" + peer.port() + "/"), HTTP_EXTRA);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clients")
    void anHttpResponseAtConnectBeforeAnyRequestIsAnErrorNotAShiftOfEveryLatency(String impl) throws Exception {
        try (HttpPeer peer = new HttpPeer(true, 1)) {
            assertStoppedByTheExtraResponse(client(impl, "--url", "http://127.0.0.1:" + peer.port() + "/"), HTTP_EXTRA);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clients")
    void aFramedServerAnsweringEveryRequestTwiceIsAnErrorNotALateResponse(String impl) throws Exception {
        try (ScriptedServer server = new ScriptedServer(i -> ScriptedServer.Action.ANSWER_TWICE)) {
            CliTest.Outcome o = client(impl, "--port", Integer.toString(server.address().getPort()));
            assertStoppedByTheExtraResponse(o, "a second response to request id ");
        }
    }

    /**
     * A timeout does not excuse a second answer to another request: "late" is only the answer of a message that
     * timed out. The first connection's first request is never answered; its second, sent once the first timed out
     * (window 1), is answered twice. Counting alone (late responses up to the timeouts) would take the extra answer
     * for the late one.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("clients")
    void aSecondAnswerAfterATimeoutIsStillAnErrorNotTheLateAnswer(String impl) throws Exception {
        try (FramedPeer peer = new FramedPeer()) {
            CliTest.Outcome o = client(impl, "--port", Integer.toString(peer.port()), "--timeout", "300ms",
                    "--max-errors", "5"); // the timeout is expected: it must not end the run first
            assertStoppedByTheExtraResponse(o, "a second response to request id ");
            assertTrue(o.out().contains("timeout=1"), o.out());
        }
    }

    /** Count-based and short: the extra response comes with the first answer, so the run stops at once. */
    private static CliTest.Outcome client(String impl, String... target) {
        List<String> args = new ArrayList<>(List.of("client", "--impl", impl, "--connections", "2",
                "--threads", "2", "--msgs", "200", "--warmup", "0", "--iterations", "1"));
        args.addAll(List.of(target));
        if (!args.contains("--timeout")) {
            args.addAll(List.of("--timeout", "5s"));
        }
        return CliTest.run(args.toArray(new String[0]));
    }

    private static void assertStoppedByTheExtraResponse(CliTest.Outcome o, String what) {
        String all = o.out() + o.err();
        assertEquals(ExitCode.COULD_NOT_RUN, o.code(), all);
        assertFalse(o.out().contains("Result: PASS"), all);
        assertTrue(o.out().contains("Result: ABORTED: "), all);
        String[] lines = o.err().strip().split("\n");
        assertEquals(1, lines.length, all);
        assertTrue(lines[0].startsWith("nbench client: run aborted: "), all);
        assertTrue(NAMES_THE_CONNECTION.matcher(lines[0]).find(), all);
        assertTrue(lines[0].contains(what), all);
        assertFalse(all.contains("late responses"), all);
    }

    /**
     * A framed peer (docs/protocol.md) that answers every request once, except on the first connection it accepts:
     * its first request never, its second twice (in one write). The other connections answer 5 ms late.
     */
    static final class FramedPeer extends Peer {
        private final AtomicBoolean first = new AtomicBoolean();

        FramedPeer() throws IOException {
            listen();
        }

        @Override
        void serve(Socket s) throws IOException {
            boolean misbehaves = first.compareAndSet(false, true);
            DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
            OutputStream out = s.getOutputStream();
            for (int n = 0; ; n++) {
                int frameLength = in.readInt();
                int responseLength = in.readInt();
                long id = in.readLong();
                byte[] payload = in.readNBytes(frameLength - 12);
                ByteBuffer r = ByteBuffer.allocate(13 + responseLength);
                r.putInt(9 + responseLength).putLong(id).put((byte) 0);
                r.put(payload, 0, Math.min(payload.length, responseLength));
                byte[] answer = r.array();
                if (misbehaves && n == 0) {
                    continue;
                }
                if (!misbehaves) {
                    // Answers keep coming on the other connection while the first request times out: a client that
                    // hears nothing on any connection for --timeout stops as stalled (at 5 ms each, 200 last 1 s).
                    sleep(5);
                }
                out.write(misbehaves && n == 1 ? twice(answer) : answer);
                out.flush();
            }
        }

        private static void sleep(long ms) throws IOException {
            try {
                Thread.sleep(ms);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            }
        }

        private static byte[] twice(byte[] b) {
            byte[] two = Arrays.copyOf(b, 2 * b.length);
            System.arraycopy(b, 0, two, b.length, b.length);
            return two;
        }
    }

    /**
     * A raw-socket HTTP/1.1 peer: to every request head it answers {@code answers} times (all in one write), and with
     * {@code atConnect} it first sends one response no request asked for.
     */
    static final class HttpPeer extends Peer {
        private final boolean atConnect;
        private final byte[] answer;

        HttpPeer(boolean atConnect, int answers) throws IOException {
            this.atConnect = atConnect;
            this.answer = new byte[OK.length * answers];
            for (int i = 0; i < answers; i++) {
                System.arraycopy(OK, 0, answer, i * OK.length, OK.length);
            }
            listen();
        }

        @Override
        void serve(Socket s) throws IOException {
            InputStream in = new BufferedInputStream(s.getInputStream());
            OutputStream out = s.getOutputStream();
            if (atConnect) {
                out.write(OK);
                out.flush();
            }
            int tail = 0; // the last four bytes read: a request head ends with CR LF CR LF
            for (int b; (b = in.read()) >= 0; ) {
                tail = tail << 8 | b;
                if (tail == 0x0D0A0D0A) {
                    out.write(answer);
                    out.flush();
                }
            }
        }
    }

    /** A raw-socket peer, a thread per connection; {@link #close} ends them all. */
    abstract static class Peer implements AutoCloseable {
        private final ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        private final List<Socket> sockets = new CopyOnWriteArrayList<>();
        private final List<Thread> threads = new CopyOnWriteArrayList<>();

        Peer() throws IOException {
        }

        /** Starts accepting: the last thing a subclass's constructor does, so its fields are set before. */
        final void listen() {
            start(this::accept, "peer-accept");
        }

        abstract void serve(Socket s) throws IOException;

        int port() {
            return listener.getLocalPort();
        }

        private void start(Runnable r, String name) {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }

        private void accept() {
            while (!listener.isClosed()) {
                try {
                    Socket s = listener.accept();
                    s.setTcpNoDelay(true);
                    sockets.add(s);
                    start(() -> serveUntilClosed(s), "peer");
                } catch (IOException e) {
                    return;
                }
            }
        }

        private void serveUntilClosed(Socket s) {
            try (s) {
                serve(s);
            } catch (IOException e) {
                // the client closed, or we did
            }
        }

        @Override
        public void close() throws IOException {
            listener.close();
            for (Socket s : sockets) {
                s.close();
            }
            for (Thread t : threads) {
                try {
                    t.join(5_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }
}
