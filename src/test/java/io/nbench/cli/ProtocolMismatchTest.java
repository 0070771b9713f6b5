package io.nbench.cli;

import io.nbench.client.ExitCode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.protocol.Protocol;
import io.nbench.testkit.TestServers;
import io.nbench.testkit.Transports;
import io.nbench.transport.RunningServer;
import io.nbench.transport.ServerEvents;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A client pointed at a peer that does not speak its protocol: it must stop at once with exit 1 and one
 * line that says what the peer is and what to do, for every client transport, and print what it has.
 */
class ProtocolMismatchTest {

    static Stream<String> clients() {
        return Transports.network().stream();
    }

    /** A bounded run: before the fix a mismatch ran to its end (or for days, count-based) and FAILed. */
    private static CliTest.Outcome client(String impl, int port, String... more) {
        List<String> args = new ArrayList<>(List.of("client", "--impl", impl, "--port", Integer.toString(port),
                "--threads", "2", "--iteration-time", "2s", "--warmup", "0", "--iterations", "1",
                "--timeout", "2s"));
        args.addAll(List.of(more));
        return CliTest.run(args.toArray(new String[0]));
    }

    private static void assertAbortedWith(CliTest.Outcome o, String expected) {
        assertEquals(ExitCode.COULD_NOT_RUN, o.code(), o.out() + o.err());
        String[] lines = o.err().strip().split("\n");
        assertEquals(1, lines.length, o.err());
        assertTrue(lines[0].startsWith("nbench client: run aborted: "), o.err());
        assertTrue(lines[0].contains(expected), o.err());
        assertFalse(lines[0].contains("still running"), o.err());
        assertTrue(o.out().contains("Result: ABORTED: "), o.out());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clients")
    void framedClientAgainstAnEchoServerSaysUseProtocolEcho(String impl) {
        int port = TestServers.get("netty", Protocol.ECHO).address().getPort();
        CliTest.Outcome o = client(impl, port);
        assertAbortedWith(o, "protocol mismatch: the server echoes the request (it is an echo server): use --protocol echo");
        assertTrue(o.out().contains("first protocol error: protocol mismatch: the server echoes the request"), o.out());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clients")
    void echoClientAgainstAFramedServerSaysProtocolMismatch(String impl) {
        int port = TestServers.get("netty", Protocol.FRAMED).address().getPort();
        CliTest.Outcome o = client(impl, port, "--protocol", "echo", "--size", "64");
        assertAbortedWith(o, "protocol mismatch: the server closed every connection after the first request without "
                + "answering any: it is not an echo server");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clients")
    void aServerThatRefusesTheRequestSizeIsNamedByWhatItDid(String impl) throws Exception {
        // The client cannot tell this server from one killed before its first answer (StoppedServerTest):
        // the line says what happened and where the cause is written, and guesses no cause.
        try (RunningServer server = TestServers.start("nio", Protocol.FRAMED, 1024, ServerEvents.NONE, Map.of(),
                new InetSocketAddress("127.0.0.1", 0))) {
            CliTest.Outcome o = client(impl, server.address().getPort(), "--size", "4k");
            assertAbortedWith(o, "the server closed every connection after the first request without answering any "
                    + "(payload 4096 bytes, response 4096 bytes): it stopped, or it refused the request; if it is "
                    + "up, its log says why");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clients")
    void anHttpServerIsNamedByWhatItSent(String impl) throws Exception {
        try (HttpLikePeer http = new HttpLikePeer()) {
            CliTest.Outcome framed = client(impl, http.port());
            assertAbortedWith(framed, "protocol mismatch: the peer does not speak nbench's framed protocol (it sent "
                    + "'HTTP/1.1 400 Bad Request'");
            assertTrue(framed.err().contains("is it an nbench server?"), framed.err());
            CliTest.Outcome echo = client(impl, http.port(), "--protocol", "echo", "--size", "16");
            assertAbortedWith(echo, "protocol mismatch: the peer does not echo what was sent (it sent "
                    + "'HTTP/1.1 400 Bad'): is it an echo server?"); // its 16-byte message
        }
    }

    /** Answers whatever it reads with an HTTP 400 and closes, as web servers do with bytes that are not HTTP. */
    static final class HttpLikePeer implements AutoCloseable {
        private final ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        private final Thread acceptor = new Thread(this::serve, "http-like-peer");

        HttpLikePeer() throws IOException {
            acceptor.setDaemon(true);
            acceptor.start();
        }

        int port() {
            return listener.getLocalPort();
        }

        private void serve() {
            while (!listener.isClosed()) {
                try (Socket s = listener.accept()) {
                    InputStream in = s.getInputStream();
                    if (in.read(new byte[4096]) < 0) {
                        continue;
                    }
                    s.getOutputStream().write(("HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\n"
                            + "Content-Length: 11\r\nConnection: close\r\n\r\nBad Request").getBytes(StandardCharsets.US_ASCII));
                    s.getOutputStream().flush();
                } catch (IOException e) {
                    // closed, or the client went away first
                }
            }
        }

        @Override
        public void close() throws IOException {
            listener.close();
            try {
                acceptor.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
