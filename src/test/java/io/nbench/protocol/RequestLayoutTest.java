package io.nbench.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The request layout at every boundary of its payload (7, 8, 9 and 12 bytes: below, at and above the
 * 8-byte id stamp), the per-connection pattern (pinned to bytes computed independently, in Python, from
 * the documented xorshift), and the framed header checks at their limits.
 */
class RequestLayoutTest {

    private static final long ID = 0x0102030405060708L;

    /** pattern(12, seed) computed in Python: x = seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019 (mod 2^64), xorshift 13/7/17. */
    private static final byte[] SEED_1 = {22, 68, 92, -60, 93, 45, -35, 6, 44, 14, 34, -48};
    private static final byte[] SEED_2 = {51, -123, 110, 30, 72, 116, -6, -47, -44, 27, 107, 37};

    @Test
    void thePatternIsTheDocumentedXorshiftPerConnection() {
        assertArrayEquals(SEED_1, RequestTemplate.echo(12, 1).patternCopy());
        assertArrayEquals(SEED_2, RequestTemplate.echo(12, 2).patternCopy());
        assertArrayEquals(SEED_1, RequestTemplate.framed(12, 12, 1).patternCopy(), "framed and echo share the pattern");
        // No two of the first 64 connections share their 12-byte pattern.
        for (int a = 1; a <= 64; a++) {
            for (int b = a + 1; b <= 64; b++) {
                assertFalse(Arrays.equals(RequestTemplate.echo(12, a).patternCopy(), RequestTemplate.echo(12, b).patternCopy()),
                        a + " and " + b);
            }
        }
    }

    /** pattern(24, 0) bytes 16..23 computed in Python, the same xorshift with seed 0. */
    private static final byte[] SHARED_16_TO_24 = {-111, -98, -19, -110, 23, -45, 92, 124};

    @Test
    void pastItsFirst16BytesThePayloadIsTheSameForEveryConnection() {
        RequestTemplate one = RequestTemplate.echo(1024, 1);
        RequestTemplate two = RequestTemplate.echo(1024, 2);
        // The first 16 bytes keep the per-connection pattern (its start is the 12-byte one above).
        assertArrayEquals(SEED_1, Arrays.copyOf(one.patternCopy(), 12));
        assertArrayEquals(SEED_2, Arrays.copyOf(two.patternCopy(), 12));
        assertArrayEquals(SHARED_16_TO_24, Arrays.copyOfRange(one.patternCopy(), 16, 24));
        assertArrayEquals(Arrays.copyOfRange(one.bytes(), 16, 1024), Arrays.copyOfRange(two.bytes(), 16, 1024));
        assertFalse(Arrays.equals(Arrays.copyOfRange(one.bytes(), 8, 16), Arrays.copyOfRange(two.bytes(), 8, 16)),
                "bytes 8..15 tell the connections apart");
        assertEquals(16, one.connectionHeadLength());
        assertTrue(one.sameTailAs(two));
        RequestTemplate framedOne = RequestTemplate.framed(1024, 100, 1);
        RequestTemplate framedTwo = RequestTemplate.framed(1024, 7, 2);
        assertEquals(16 + 16, framedOne.connectionHeadLength(), "the header (with the response length) and 16 payload bytes");
        assertTrue(framedOne.sameTailAs(framedTwo), "the response length is in the header, not the tail");
        assertArrayEquals(Arrays.copyOfRange(framedOne.bytes(), 32, 16 + 1024), Arrays.copyOfRange(framedTwo.bytes(), 32, 16 + 1024));
        assertFalse(one.sameTailAs(framedOne), "another protocol");
        assertFalse(one.sameTailAs(RequestTemplate.echo(1000, 1)), "another size");
        // Up to 16 payload bytes, the whole request is the connection's own.
        assertEquals(12, RequestTemplate.echo(12, 1).connectionHeadLength());
        assertEquals(16 + 12, RequestTemplate.framed(12, 12, 1).connectionHeadLength());
    }

    @ParameterizedTest(name = "echo size {0}")
    @ValueSource(ints = {7, 8, 9, 12})
    void echoLayout(int size) {
        RequestTemplate t = RequestTemplate.echo(size, 1);
        assertEquals(Protocol.ECHO, t.protocol());
        assertEquals(size, t.payloadSize());
        assertEquals(size, t.responseLength());
        assertEquals(size, t.wireLength());
        boolean stamped = size >= 8;
        assertEquals(stamped, t.payloadCarriesId());
        assertArrayEquals(stamped ? new int[] {0} : new int[0], t.idOffsets());
        byte[] wire = new byte[size + 3];
        t.encode(ID, wire, 3);
        byte[] expected = new byte[size + 3];
        for (int i = 0; i < size; i++) {
            expected[3 + i] = stamped && i < 8 ? (byte) (i + 1) : SEED_1[i];
            assertEquals(expected[3 + i], t.payloadByte(ID, i), "payload byte " + i);
            assertEquals(expected[3 + i], t.expectedResponseByte(ID, i), "response byte " + i);
        }
        assertArrayEquals(expected, wire);
        assertArrayEquals(Arrays.copyOf(SEED_1, size), t.bytes(), "the template itself carries id 0's pattern");
    }

    @ParameterizedTest(name = "framed payload {0}")
    @ValueSource(ints = {7, 8, 9, 12})
    void framedLayout(int size) {
        RequestTemplate t = RequestTemplate.framed(size, 10, 1);
        assertEquals(Protocol.FRAMED, t.protocol());
        assertEquals(size, t.payloadSize());
        assertEquals(10, t.responseLength(), "framed: what the request asks for, not its size");
        assertEquals(16 + size, t.wireLength());
        boolean stamped = size >= 8;
        assertEquals(stamped, t.payloadCarriesId());
        assertArrayEquals(stamped ? new int[] {8, 16} : new int[] {8}, t.idOffsets());
        byte[] wire = new byte[16 + size];
        t.encode(ID, wire, 0);
        ByteBuffer b = ByteBuffer.wrap(wire);
        assertEquals(12 + size, b.getInt(0), "frameLength");
        assertEquals(10, b.getInt(4), "responseLength");
        assertEquals(ID, b.getLong(8), "id in the header");
        for (int i = 0; i < size; i++) {
            byte want = stamped && i < 8 ? (byte) (i + 1) : SEED_1[i];
            assertEquals(want, wire[16 + i], "payload byte " + i);
        }
        // The response is the payload truncated or zero-padded to the response length.
        for (int i = 0; i < 10; i++) {
            byte want = i >= size ? 0 : stamped && i < 8 ? (byte) (i + 1) : SEED_1[i];
            assertEquals(want, t.expectedResponseByte(ID, i), "response byte " + i);
        }
    }

    @Test
    void ofPicksTheProtocol() {
        RequestTemplate echo = RequestTemplate.of(Protocol.ECHO, 9, 100, 1);
        assertEquals(9, echo.responseLength(), "echo answers its own size whatever is asked");
        RequestTemplate framed = RequestTemplate.of(Protocol.FRAMED, 9, 100, 1);
        assertEquals(100, framed.responseLength());
        assertEquals(25, framed.wireLength());
    }

    @Test
    void aResponseCarryingAnotherConnectionsPatternDiffers() {
        // Connection 1 verifies against its own pattern; connection 2's response for the same id differs
        // in every byte after the stamp where the patterns differ (bytes 8..11 here).
        RequestTemplate one = RequestTemplate.echo(12, 1);
        RequestTemplate two = RequestTemplate.echo(12, 2);
        for (int i = 8; i < 12; i++) {
            assertNotEquals(one.expectedResponseByte(ID, i), two.payloadByte(ID, i), "byte " + i);
        }
        for (int i = 0; i < 8; i++) {
            assertEquals(one.expectedResponseByte(ID, i), two.payloadByte(ID, i), "the stamp is the id's, not the pattern's");
        }
    }

    @Test
    void framedHeaderChecksAtTheirLimits() {
        assertNull(Framed.checkRequest(12, 0, 100));
        assertEquals("request frameLength 11 < 12", Framed.checkRequest(11, 0, 100));
        assertNull(Framed.checkRequest(112, 100, 100));
        assertEquals("request payload 101 bytes > --max-frame 100", Framed.checkRequest(113, 0, 100));
        assertEquals("responseLength 101 > --max-frame 100", Framed.checkRequest(12, 101, 100));
        assertNull(Framed.checkResponse(9, 100));
        assertEquals("response frameLength 8 < 9", Framed.checkResponse(8, 100));
        assertNull(Framed.checkResponse(109, 100));
        assertEquals("response payload 101 bytes > max frame 100", Framed.checkResponse(110, 100));
        assertEquals(4_294_967_295L, Framed.unsigned(-1));
        assertEquals(9 + 5, Framed.responseFrameLength(Framed.STATUS_OK, 5));
        assertEquals(9, Framed.responseFrameLength(Framed.STATUS_REJECTED, 5));
        assertEquals(12 + 7, Framed.requestFrameLength(7));
    }

    @Test
    void protocolNames() {
        assertEquals("framed", Protocol.FRAMED.label());
        assertEquals("echo", Protocol.ECHO.label());
        assertEquals(Protocol.ECHO, Protocol.parse("ECHO"));
        assertEquals(Protocol.FRAMED, Protocol.parse("framed"));
        assertEquals(Protocol.HTTP, Protocol.parse("HTTP"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Protocol.parse("gopher"));
        assertEquals("unknown protocol 'gopher': use framed, echo or http", e.getMessage());
        assertEquals(List.of(Protocol.FRAMED, Protocol.ECHO, Protocol.HTTP),
                ProtocolRegistry.load().all());
    }
    @Test
    void theTailAfterTheIdIsSharedFrom1KiB() {
        // Framed: header (id at 8) and the id stamped again at 16: 24 bytes per message.
        assertEquals(24, RequestTemplate.framed(100, 100, 1).perMessageLength());
        assertEquals(0, RequestTemplate.framed(100, 100, 1).sharedTailLength());
        assertEquals(16, RequestTemplate.framed(7, 7, 1).perMessageLength()); // no id in a short payload
        // A 1,031-byte payload leaves a tail of 16 + 1031 - 24 = 1,023 bytes: copied; one more byte: shared.
        assertEquals(0, RequestTemplate.framed(1031, 0, 1).sharedTailLength());
        assertEquals(1024, RequestTemplate.framed(1032, 0, 1).sharedTailLength());
        assertEquals(1_048_576 + 16 - 24, RequestTemplate.framed(1 << 20, 1 << 20, 1).sharedTailLength());
        // Echo: the id is the first 8 bytes; below 8 bytes there is none.
        assertEquals(8, RequestTemplate.echo(2000, 1).perMessageLength());
        assertEquals(1992, RequestTemplate.echo(2000, 1).sharedTailLength());
        assertEquals(0, RequestTemplate.echo(7, 1).perMessageLength());
        assertEquals(1024, RequestTemplate.echo(1032, 1).sharedTailLength());
        assertEquals(0, RequestTemplate.echo(1031, 1).sharedTailLength());
    }
}
