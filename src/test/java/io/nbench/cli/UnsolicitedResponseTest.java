package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.client.ExitCode;
import io.nbench.testkit.ScriptedServer;
import io.nbench.testkit.Transports;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
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

    /** Count-based and short: the extra response comes with the first answer, so the run stops at once. */
    private static CliTest.Outcome client(String impl, String... target) {
        List<String> args = new java.util.ArrayList<>(List.of("client", "--impl", impl, "--connections", "2",
                "--threads", "2", "--msgs", "200", "--warmup", "0", "--iterations", "1", "--timeout", "5s"));
        args.addAll(List.of(target));
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
     * A raw-socket HTTP/1.1 peer: to every request head it answers {@code answers} times (all in one write), and with
     * {@code atConnect} it first sends one response no request asked for.
     */
    static final class HttpPeer implements AutoCloseable {
        private final ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        private final List<Socket> sockets = new CopyOnWriteArrayList<>();
        private final List<Thread> threads = new CopyOnWriteArrayList<>();
        private final boolean atConnect;
        private final byte[] answer;

        HttpPeer(boolean atConnect, int answers) throws IOException {
            this.atConnect = atConnect;
            this.answer = new byte[OK.length * answers];
            for (int i = 0; i < answers; i++) {
                System.arraycopy(OK, 0, answer, i * OK.length, OK.length);
            }
            start(this::accept, "http-peer-accept");
        }

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
                    start(() -> serve(s), "http-peer");
                } catch (IOException e) {
                    return;
                }
            }
        }

        private void serve(Socket s) {
            try (s) {
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
