package io.nbench.protocol;

import static io.nbench.testkit.Hex.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.server.ServerMetrics;
import io.nbench.testkit.Hex;
import io.nbench.testkit.TestServers;
import io.nbench.testkit.Transports;
import io.nbench.transport.RunningServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The vectors of {@code protocol-vectors.md}, byte for byte, against every network server transport,
 * sent by a plain socket: whole, split at every byte boundary, and coalesced. Vector 7 (rejection) needs
 * a server executor with a full queue and is covered with the executor.
 */
class ProtocolVectorsTest {

    static final String REQ1 = "0000000f 00000003 0000000000000001 616263";
    static final String RESP1 = "0000000c 0000000000000001 00 616263";
    static final String REQ2 = "0000000e 00000000 0000000000000002 0102";
    static final String REQ3 = "00000011 00000002 0000000000000003 68656c6c6f";
    static final String RESP3 = "0000000b 0000000000000003 00 6865";
    static final String REQ4 = "0000000e 00000005 0000000000000004 6869";
    static final String RESP4 = "0000000e 0000000000000004 00 6869000000";
    static final String REQ5 = "0000000c 00000004 0000000000000005";
    static final String RESP5 = "0000000d 0000000000000005 00 00000000";

    static Stream<String> servers() {
        return Transports.network().stream();
    }

    private static Socket connect(RunningServer server) throws IOException {
        Socket s = new Socket(server.address().getAddress(), server.address().getPort());
        s.setTcpNoDelay(true);
        s.setSoTimeout(10_000);
        return s;
    }

    private static void exchange(Socket s, String request, String response) throws IOException {
        s.getOutputStream().write(bytes(request));
        s.getOutputStream().flush();
        assertEquals(response.replace(" ", ""), Hex.string(s.getInputStream().readNBytes(bytes(response).length)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void eachVectorWhole(String transport) throws IOException {
        RunningServer server = TestServers.get(transport, Protocol.FRAMED);
        try (Socket s = connect(server)) {
            exchange(s, REQ1, RESP1);
            exchange(s, REQ3, RESP3);
            exchange(s, REQ4, RESP4);
            exchange(s, REQ5, RESP5);
            // Vector 2 is one-way: the next response seen must be vector 1's.
            exchange(s, REQ2 + REQ1, RESP1);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void splitAtEveryByteBoundary(String transport) throws IOException {
        RunningServer server = TestServers.get(transport, Protocol.FRAMED);
        try (Socket s = connect(server)) {
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            for (String[] v : List.of(new String[] {REQ1, RESP1}, new String[] {REQ3, RESP3},
                    new String[] {REQ4, RESP4}, new String[] {REQ5, RESP5})) {
                byte[] req = bytes(v[0]);
                for (int split = 1; split < req.length; split++) {
                    out.write(req, 0, split);
                    out.flush();
                    out.write(req, split, req.length - split);
                    out.flush();
                    assertEquals(v[1].replace(" ", ""), Hex.string(in.readNBytes(bytes(v[1]).length)),
                            "split at byte " + split);
                }
            }
            // And one byte per write, across several requests.
            byte[] all = bytes(REQ1 + REQ2 + REQ3);
            for (byte b : all) {
                out.write(b);
                out.flush();
            }
            assertEquals((RESP1 + RESP3).replace(" ", ""), Hex.string(in.readNBytes(bytes(RESP1 + RESP3).length)));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void vector6PipelinedInOneWrite(String transport) throws IOException {
        try (Socket s = connect(TestServers.get(transport, Protocol.FRAMED))) {
            exchange(s, REQ1 + REQ2 + REQ3, RESP1 + RESP3);
            exchange(s, REQ1 + REQ3 + REQ4 + REQ5, RESP1 + RESP3 + RESP4 + RESP5);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void vector8LargestLegalRequest(String transport) throws IOException {
        try (Socket s = connect(TestServers.get(transport, Protocol.FRAMED))) {
            OutputStream out = s.getOutputStream();
            out.write(bytes("0100000c 00000001 0000000000000006"));
            byte[] zeros = new byte[64 * 1024];
            for (int i = 0; i < TestServers.MAX_FRAME / zeros.length; i++) {
                out.write(zeros);
            }
            out.flush();
            String expected = "0000000a000000000000000600" + "00";
            assertEquals(expected, Hex.string(s.getInputStream().readNBytes(14)));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void protocolErrorsCloseOnlyTheOffendingConnection(String transport) throws IOException {
        StringWriter log = new StringWriter();
        ServerMetrics metrics = new ServerMetrics(new PrintWriter(log));
        try (RunningServer server = TestServers.start(transport, Protocol.FRAMED, metrics);
             Socket good = connect(server)) {
            exchange(good, REQ1, RESP1);
            String[] bad = {
                "0000000b 00000000 0000000000000007 00",   // 9: frameLength 11 < 12
                "0100000d 00000001 0000000000000008",      // 10: payload 16 MiB + 1 > max frame
                "0000000c 01000001 0000000000000009",      // 11: responseLength > max frame
                "0000000c 80000000 000000000000000a",      // 12: responseLength 2^31, unsigned
            };
            for (String v : bad) {
                try (Socket s = connect(server)) {
                    s.getOutputStream().write(bytes(v));
                    s.getOutputStream().flush();
                    assertClosed(s, v);
                }
                exchange(good, REQ1, RESP1); // other connections are unaffected
            }
            assertEquals(4, metrics.protocolErrors(), "each bad vector counted once");
        }
        assertTrue(log.toString().contains("protocol error"), "a protocol error is logged: " + log);
    }

    private static void assertClosed(Socket s, String vector) throws IOException {
        try {
            int b = s.getInputStream().read();
            assertEquals(-1, b, "server must close the connection after " + vector);
        } catch (SocketTimeoutException e) {
            throw new AssertionError("server kept the connection open after " + vector, e);
        } catch (SocketException reset) {
            // A reset is also a close: the server may discard unread bytes.
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void echoServerWritesBackEveryByte(String transport) throws IOException {
        try (Socket s = connect(TestServers.get(transport, Protocol.ECHO))) {
            ByteArrayOutputStream sent = new ByteArrayOutputStream();
            for (int n : new int[] {1, 7, 1000, 70_000}) {
                byte[] chunk = new byte[n];
                for (int i = 0; i < n; i++) {
                    chunk[i] = (byte) (i * 31 + n);
                }
                s.getOutputStream().write(chunk);
                s.getOutputStream().flush();
                assertArrayEquals(chunk, s.getInputStream().readNBytes(n));
                sent.write(chunk);
            }
        }
    }
}
