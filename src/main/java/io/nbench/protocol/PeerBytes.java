package io.nbench.protocol;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The first bytes of something a peer sent that nbench could not parse, kept so that the error can show
 * them: {@code it sent 'HTTP/1.1 400'} tells a user at once that the port belongs to another service.
 * Error path only: it allocates.
 */
public final class PeerBytes {

    /** How many bytes are kept. */
    public static final int HEAD = 24;

    private PeerBytes() {
    }

    /** Up to {@link #HEAD} bytes of {@code in} from absolute index {@code from} to its limit; {@code in} is not moved. */
    public static byte[] head(ByteBuffer in, int from) {
        int n = Math.max(0, Math.min(HEAD, in.limit() - from));
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = in.get(from + i);
        }
        return b;
    }

    /**
     * Whether the bytes start like a TLS record (content type 20 to 23, version 3.x): a server running TLS
     * answering a plain-text client, usually with an alert before it closes.
     */
    public static boolean tlsRecord(byte[] head) {
        return head.length >= 3 && head[0] >= 20 && head[0] <= 23 && head[1] == 3 && head[2] >= 0 && head[2] <= 4;
    }

    /** What to say of a peer that answered with a TLS record. */
    public static String tlsPeer(byte[] head) {
        return "protocol mismatch: the server speaks TLS (it sent " + describe(head) + ", a TLS record): add --tls to "
                + "the client, with --tls-ca FILE or --tls-insecure";
    }

    /**
     * The bytes as a quoted text up to the first line break when they are printable ASCII
     * ({@code 'HTTP/1.1 400 Bad'}), else as hex ({@code 0x0000040c...}).
     */
    public static String describe(byte[] head) {
        int end = head.length;
        boolean text = end > 0;
        for (int i = 0; i < head.length; i++) {
            int c = head[i] & 0xFF;
            if (c == '\r' || c == '\n') {
                end = i;
                break;
            }
            if (c < 0x20 || c > 0x7E) {
                text = false;
                break;
            }
        }
        if (text && end > 0) {
            return "'" + new String(head, 0, end, StandardCharsets.US_ASCII) + "'";
        }
        StringBuilder sb = new StringBuilder("0x");
        for (byte b : head) {
            sb.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
        }
        return sb.toString();
    }
}
