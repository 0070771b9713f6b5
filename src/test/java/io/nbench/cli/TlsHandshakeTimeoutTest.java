package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.protocol.Protocol;
import io.nbench.server.BenchServer;
import io.nbench.server.ServerPlan;
import io.nbench.testkit.TestMatrix;
import io.nbench.tls.TlsChoice;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 41: a peer that connects to a TLS server and never sends a byte. Before {@code --tls-handshake-timeout} the
 * nio, blocking, vthreads and mina servers kept such a connection for ever (the blocking server a thread with it: 500
 * silent connections took it from 22 to 522 threads), netty closed it at SslHandler's own 10 s. Now every TLS
 * server closes it once the timeout passes, counts it as a protocol error and says so in its log; a connection
 * whose handshake was done stays open.
 */
class TlsHandshakeTimeoutTest {

    /** Silent peers per server: the 500 only in the full matrix. */
    private static final int SILENT = TestMatrix.FULL ? 500 : 20;
    /** How long a silent peer waits for its close before the test fails: far beyond the 1 s timeout. */
    private static final int CLOSE_BOUND_MILLIS = 9_000;

    static List<String> tlsTransports() {
        return TlsCliTest.tlsTransports();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("tlsTransports")
    void aSilentPeerIsClosedAfterTheHandshakeTimeout(String transport) throws Exception {
        ServerPlan plan = ServerPlan.builder().transport(transport, Map.of()).protocol(Protocol.ECHO)
                .tls(TlsChoice.defaults(), null, null).tlsHandshakeTimeout(Duration.ofSeconds(1)).build();
        StringWriter log = new StringWriter();
        try (BenchServer s = BenchServer.start(plan, new PrintWriter(new StringWriter()), new PrintWriter(log))) {
            InetSocketAddress at = s.address();
            long threadsBefore = serverThreads(transport);
            // A client whose handshake is done first: its deadline passes before any silent peer's.
            try (SSLSocket good = (SSLSocket) trusting(plan).getSocketFactory().createSocket(at.getAddress(),
                    at.getPort())) {
                good.setSoTimeout(CLOSE_BOUND_MILLIS);
                good.startHandshake();
                List<Socket> silent = new ArrayList<>();
                try {
                    for (int i = 0; i < SILENT; i++) {
                        Socket peer = new Socket(at.getAddress(), at.getPort());
                        silent.add(peer);
                    }
                    for (Socket peer : silent) {
                        assertClosedByServer(peer, transport);
                    }
                } finally {
                    for (Socket peer : silent) {
                        peer.close();
                    }
                }
                await(s.metrics()::protocolErrors, SILENT, "protocol errors counted (" + log + ")");
                await(s.metrics()::openConnections, 1, "open connections: the done handshake's only");
                if (transport.equals("blocking")) { // each silent peer had a thread, blocked in its handshake
                    await(() -> serverThreads(transport), threadsBefore + 1, "blocking server threads");
                }
                assertTrue(log.toString().contains("--tls-handshake-timeout"), log.toString());
                // The timeout is for handshakes: the connection whose handshake was done is still served.
                byte[] hello = "still here".getBytes(StandardCharsets.US_ASCII);
                good.getOutputStream().write(hello);
                good.getOutputStream().flush();
                assertArrayEquals(hello, good.getInputStream().readNBytes(hello.length), transport);
            }
        }
    }

    /** The server closes a silent peer: its read ends (-1, or a reset) rather than timing out. */
    private static void assertClosedByServer(Socket peer, String transport) throws IOException {
        peer.setSoTimeout(CLOSE_BOUND_MILLIS);
        InputStream in = peer.getInputStream();
        try {
            while (in.read() >= 0) {
                // an alert the server sends before it closes
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError(transport + ": a peer that sent nothing was still open after "
                    + CLOSE_BOUND_MILLIS + " ms with --tls-handshake-timeout 1s", e);
        } catch (IOException reset) {
            // closed with a reset: closed all the same
        }
    }

    private static long serverThreads(String transport) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("nbench-" + transport + "-server-")).count();
    }

    private static void await(LongSupplier value, long expected, String what) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (value.getAsLong() != expected && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertEquals(expected, value.getAsLong(), what);
    }

    /** A client context trusting the server's own (self-signed) certificate. */
    private static SSLContext trusting(ServerPlan plan) throws Exception {
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        trust.setCertificateEntry("server", plan.tls().chain().get(0));
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, tmf.getTrustManagers(), null);
        return context;
    }
}
