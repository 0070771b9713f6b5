package io.nbench.transport.mina;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.nbench.protocol.Protocol;
import io.nbench.transport.RunningServer;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** protocol-vectors.md, byte for byte, against a real {@code mina} server over loopback. */
@Timeout(60)
class MinaProtocolVectorsTest {

    private static final HexFormat HEX = HexFormat.of();

    static byte[] hex(String s) {
        return HEX.parseHex(s.replace(" ", ""));
    }

    static final byte[] REQ1 = hex("0000000f 00000003 0000000000000001 616263");
    static final byte[] RESP1 = hex("0000000c 0000000000000001 00 616263");
    static final byte[] REQ2 = hex("0000000e 00000000 0000000000000002 0102");
    static final byte[] REQ3 = hex("00000011 00000002 0000000000000003 68656c6c6f");
    static final byte[] RESP3 = hex("0000000b 0000000000000003 00 6865");
    static final byte[] REQ4 = hex("0000000e 00000005 0000000000000004 6869");
    static final byte[] RESP4 = hex("0000000e 0000000000000004 00 6869000000");
    static final byte[] REQ5 = hex("0000000c 00000004 0000000000000005");
    static final byte[] RESP5 = hex("0000000d 0000000000000005 00 00000000");
    static final byte[] REQ6 = concat(REQ1, REQ2, REQ3);
    static final byte[] RESP6 = hex("0000000c 0000000000000001 00 616263 0000000b 0000000000000003 00 6865");

    private static MinaTestKit.CountingEvents events;
    private static RunningServer server;

    private static java.util.Set<Thread> threadsBefore;

    @BeforeAll
    static void start() throws Exception {
        threadsBefore = MinaTestKit.liveThreads();
        events = new MinaTestKit.CountingEvents();
        server = MinaTestKit.server("mina", Protocol.FRAMED, events, Map.of());
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
        MinaTestKit.assertNoNewMinaThreads(threadsBefore);
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    private Socket connect() throws IOException {
        Socket s = new Socket(server.address().getAddress(), server.address().getPort());
        s.setTcpNoDelay(true);
        s.setSoTimeout(10_000);
        return s;
    }

    private static byte[] read(InputStream in, int n) throws IOException {
        byte[] b = new byte[n];
        new DataInputStream(in).readFully(b);
        return b;
    }

    /**
     * Sends {@code request}, then vector 5 as a probe, and expects exactly {@code response} followed by
     * the probe's answer: so a response that is missing, extra or too long fails.
     */
    private void exchange(Socket s, byte[] request, byte[] response, int split) throws Exception {
        OutputStream out = s.getOutputStream();
        if (split > 0) {
            out.write(request, 0, split);
            out.flush();
            // No event tells that the server has read the first part; a short pause makes the two parts
            // arrive in separate reads most of the time (coalesced reads are covered elsewhere).
            Thread.sleep(1);
            out.write(request, split, request.length - split);
        } else {
            out.write(request);
        }
        out.write(REQ5);
        out.flush();
        InputStream in = s.getInputStream();
        assertArrayEquals(response, read(in, response.length), "response to " + HEX.formatHex(request) + " split at " + split);
        assertArrayEquals(RESP5, read(in, RESP5.length), "probe after " + HEX.formatHex(request) + " split at " + split);
    }

    @Test
    void vectorsOneToSixWholeAndSplitAtEveryByte() throws Exception {
        byte[][] requests = {REQ1, REQ2, REQ3, REQ4, REQ5, REQ6};
        byte[][] responses = {RESP1, new byte[0], RESP3, RESP4, RESP5, RESP6};
        try (Socket s = connect()) {
            for (int v = 0; v < requests.length; v++) {
                for (int split = 0; split < requests[v].length; split++) {
                    exchange(s, requests[v], responses[v], split);
                }
            }
        }
    }

    @Test
    void vectorsCoalescedInOneWrite() throws Exception {
        try (Socket s = connect()) {
            exchange(s, concat(REQ1, REQ2, REQ3, REQ4, REQ5, REQ6), concat(RESP1, RESP3, RESP4, RESP5, RESP6), 0);
        }
    }

    @Test
    void vector8LargestLegalRequest() throws Exception {
        try (Socket s = connect()) {
            OutputStream out = s.getOutputStream();
            out.write(hex("0100000c 00000001 0000000000000006"));
            out.write(new byte[MinaTestKit.MAX_FRAME]);
            out.flush();
            assertArrayEquals(hex("0000000a 0000000000000006 00 00"), read(s.getInputStream(), 14));
            exchange(s, REQ1, RESP1, 0);
        }
    }

    // Vector 7 (status 1, rejected) needs --executor-queue, which no server transport has yet.

    @Test
    void vectors9To12CloseOnlyTheOffendingConnection() throws Exception {
        String[] bad = {
            "0000000b 00000000 0000000000000007 00",
            "0100000d 00000001 0000000000000008",
            "0000000c 01000001 0000000000000009",
            "0000000c 80000000 000000000000000a",
        };
        int before = events.protocolErrors.get();
        try (Socket good = connect()) {
            exchange(good, REQ1, RESP1, 0);
            for (String b : bad) {
                try (Socket s = connect()) {
                    s.getOutputStream().write(hex(b));
                    s.getOutputStream().flush();
                    assertClosed(s, b);
                }
                exchange(good, REQ3, RESP3, 0);
            }
        }
        int expected = before + bad.length;
        assertTrue(MinaTestKit.await(() -> events.protocolErrors.get() == expected, 5000));
        assertEquals(expected, events.protocolErrors.get());
    }

    private static void assertClosed(Socket s, String vector) {
        try {
            int b = s.getInputStream().read();
            assertEquals(-1, b, "expected the connection closed after " + vector);
        } catch (SocketTimeoutException e) {
            fail("server did not close the connection after " + vector);
        } catch (IOException reset) {
            // Closed with unread bytes: the peer sees a reset, which is a close too.
        }
    }
}
