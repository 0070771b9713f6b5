package io.nbench.testkit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.protocol.Framed;
import io.nbench.protocol.HttpOnFramed;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * What the decoder fuzz tests share: how a fuzzer's input becomes a byte stream delivered in pieces,
 * and the properties every frame decoder must keep whatever the bytes.
 *
 * <p>Input layout: the first byte chooses the size of the pieces the stream arrives in (1 to 256 bytes,
 * so frames are split and coalesced every way), the rest is the stream.
 */
public final class FuzzStreams {

    /** Small enough that the fuzzer reaches frames at, below and above the limit. */
    public static final int MAX_FRAME = 4096;

    private FuzzStreams() {
    }

    /** The stream's bytes (the input less its first byte). */
    public static byte[] stream(byte[] input) {
        if (input.length <= 1) {
            return new byte[0];
        }
        byte[] s = new byte[input.length - 1];
        System.arraycopy(input, 1, s, 0, s.length);
        return s;
    }

    /** The stream cut into the pieces it arrives in. */
    public static List<byte[]> pieces(byte[] input) {
        int size = input.length == 0 ? 1 : (input[0] & 0xFF) + 1;
        byte[] s = stream(input);
        List<byte[]> out = new ArrayList<>();
        for (int at = 0; at < s.length; at += size) {
            int n = Math.min(size, s.length - at);
            byte[] piece = new byte[n];
            System.arraycopy(s, at, piece, 0, n);
            out.add(piece);
        }
        return out;
    }

    /**
     * "Consume or reject" for a request stream a server decoder stopped in without a protocol error: the
     * bytes from {@code consumed} on must be the start of one valid frame it cannot finish yet (a header
     * whose visible fields are already out of bounds must have been rejected).
     */
    public static void assertIncompleteRequest(byte[] stream, long consumed, int maxFrame) {
        int left = left(stream, consumed);
        if (left < 4) {
            return;
        }
        if (HttpOnFramed.recognise(i -> stream[(int) consumed + i] & 0xFF, left) == HttpOnFramed.MORE) {
            return; // perhaps an HTTP request line: the decoder waits to answer it (up to 8 bytes)
        }
        long frameLength = u32(stream, consumed);
        assertNull(Framed.checkFrameLength(frameLength, maxFrame), "bad frame length " + frameLength + " not rejected");
        if (left >= 8) {
            long responseLength = u32(stream, consumed + 4);
            assertNull(Framed.checkResponseLength(responseLength, maxFrame), "bad response length " + responseLength + " not rejected");
        }
        assertTrue(left < 4 + frameLength, "a whole request of " + (4 + frameLength) + " bytes left unconsumed");
    }

    /** The same for a response stream a client decoder stopped in. */
    public static void assertIncompleteResponse(byte[] stream, long consumed, int maxFrame) {
        int left = left(stream, consumed);
        if (left < 4) {
            return;
        }
        long frameLength = u32(stream, consumed);
        assertNull(Framed.checkResponse(frameLength, maxFrame), "bad response frame length " + frameLength + " not rejected");
        assertTrue(left < 4 + frameLength, "a whole response of " + (4 + frameLength) + " bytes left unconsumed");
    }

    private static int left(byte[] stream, long consumed) {
        assertTrue(consumed >= 0 && consumed <= stream.length, "consumed " + consumed + " of " + stream.length);
        return (int) (stream.length - consumed);
    }

    private static long u32(byte[] stream, long at) {
        return Framed.unsigned(ByteBuffer.wrap(stream, (int) at, 4).getInt());
    }

    /** A protocol error's message: present and one line (it ends up on the user's terminal). */
    public static void assertOneLine(String message) {
        assertNotNull(message, "protocol error without a message");
        assertFalse(message.isBlank(), "blank protocol error message");
        assertFalse(message.contains("\n") || message.contains("\r"), "multi-line message: " + message);
    }
}
