package io.nbench.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** What a protocol-mismatch error shows of the peer's bytes, exactly. */
class PeerBytesTest {

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void headTakesAtMost24BytesFromTheIndexWithoutMovingTheBuffer() {
        ByteBuffer in = ByteBuffer.wrap(ascii("0123456789abcdefghijklmnopqrstuvwxyz"));
        in.position(3).limit(30);
        assertArrayEquals(ascii("56789abcdefghijklmnopqrs"), PeerBytes.head(in, 5));
        assertArrayEquals(ascii("rst"), PeerBytes.head(in, 27)); // up to the limit, not the capacity
        assertArrayEquals(new byte[0], PeerBytes.head(in, 30));
        assertArrayEquals(new byte[0], PeerBytes.head(in, 31));
        assertEquals(3, in.position());
        assertEquals(30, in.limit());
    }

    @Test
    void printableAsciiIsQuotedUpToTheFirstLineBreak() {
        assertEquals("'HTTP/1.1 400 Bad Request'", PeerBytes.describe(ascii("HTTP/1.1 400 Bad Request\r\nServer")));
        assertEquals("'<!DOCTYPE HTML>'", PeerBytes.describe(ascii("<!DOCTYPE HTML>\n<html>")));
        assertEquals("' ~'", PeerBytes.describe(ascii(" ~"))); // 0x20 and 0x7E are the printable bounds
    }

    @Test
    void anythingElseIsHex() {
        assertEquals("0x1f41", PeerBytes.describe(new byte[] {0x1F, 'A'}));
        assertEquals("0x417f", PeerBytes.describe(new byte[] {'A', 0x7F}));
        assertEquals("0x0000040cff", PeerBytes.describe(new byte[] {0, 0, 4, 12, (byte) 0xFF}));
        assertEquals("0x0d0a41", PeerBytes.describe(ascii("\r\nA"))); // nothing before the line break
        assertEquals("0x", PeerBytes.describe(new byte[0]));
    }
}
