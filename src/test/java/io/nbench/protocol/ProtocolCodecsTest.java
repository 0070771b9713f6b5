package io.nbench.protocol;

import static io.nbench.transport.Vectors.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.transport.support.ByteBufferPayloadView;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The protocol plugin: the registry, and each member's codecs against the protocol vectors. */
class ProtocolCodecsTest {

    private static WireBytes bytes(byte[] b, int length) {
        return new ByteBufferPayloadView().wrap(ByteBuffer.wrap(b), 0, length);
    }

    @Test
    void theRegistryListsFramedEchoAndHttpAndNamesThemInItsErrors() {
        ProtocolRegistry registry = ProtocolRegistry.load();
        assertEquals(List.of("framed", "echo", "http"), registry.names());
        assertSame(Protocol.FRAMED, registry.defaultProtocol());
        assertSame(Protocol.ECHO, registry.get("Echo"));
        assertSame(Protocol.HTTP, registry.get("HTTP"));
        assertEquals("framed (length, response length, id), echo (RFC 862) or http (HTTP/1.1, RFC 9112)",
                registry.help());
        assertEquals("framed or http", registry.withRequests());
        assertEquals("unknown protocol 'spdy': use framed, echo or http",
                assertThrows(IllegalArgumentException.class, () -> registry.get("spdy")).getMessage());
        assertThrows(IllegalStateException.class, () -> new ProtocolRegistry(List.of(Protocol.ECHO, Protocol.ECHO)));
    }

    @Test
    void theFramedClientCodecRecognisesEachResponseOfTheVectors() {
        ClientCodec codec = Protocol.FRAMED.client();
        for (byte[] response : List.of(RESP1, RESP3, RESP4, RESP5, RESP8)) {
            for (int n = 0; n < response.length; n++) {
                int needs = codec.frame(bytes(response, n), 0, MAX_FRAME);
                assertTrue(needs < 0 && -needs > n && -needs <= response.length, n + " bytes: " + needs);
            }
            WireBytes whole = bytes(response, response.length);
            assertEquals(response.length, codec.frame(whole, 0, MAX_FRAME));
            assertEquals(ByteBuffer.wrap(response).getLong(4), codec.id(whole));
            assertEquals(Framed.STATUS_OK, codec.status(whole));
        }
        byte[] rejected = Framed.rejectedResponse(7);
        assertEquals(rejected.length, codec.frame(bytes(rejected, rejected.length), 0, MAX_FRAME));
        assertEquals(Framed.STATUS_REJECTED, codec.status(bytes(rejected, rejected.length)));
    }

    @Test
    void theFramedClientCodecRefusesAHeaderAtItsFirstFourBytesAndAnUnknownStatus() {
        ClientCodec codec = Protocol.FRAMED.client();
        byte[] http = "HTTP/1.1 400 Bad Request".getBytes(StandardCharsets.US_ASCII);
        assertEquals(ClientCodec.BAD, codec.frame(bytes(http, 4), 0, MAX_FRAME));
        assertTrue(codec.problem(bytes(http, 4), MAX_FRAME).startsWith("response payload "));
        byte[] status2 = Arrays.copyOf(RESP1, RESP1.length);
        status2[12] = 2;
        assertEquals(ClientCodec.BAD, codec.frame(bytes(status2, status2.length), 0, MAX_FRAME));
        assertEquals("response status 2 is neither 0 (ok) nor 1 (rejected)",
                codec.problem(bytes(status2, status2.length), MAX_FRAME));
    }

    @Test
    void theFramedTemplateEncodesTheVectorsRequestHeader() {
        RequestTemplate t = RequestTemplate.framed(3, 3, 1);
        byte[] wire = t.encode(1);
        assertArrayEquals(Arrays.copyOf(REQ1, 16), Arrays.copyOf(wire, 16));
        assertArrayEquals(new int[] {Framed.REQUEST_ID_OFFSET}, t.idOffsets());
    }

    @Test
    void theEchoClientCodecCountsAResponsePerMessageSize() {
        ClientCodec codec = Protocol.ECHO.client();
        byte[] any = "HTTP/1.1 400".getBytes(StandardCharsets.US_ASCII);
        assertEquals(-5, codec.frame(bytes(any, 4), 5, MAX_FRAME));
        assertEquals(5, codec.frame(bytes(any, 12), 5, MAX_FRAME));
        assertEquals(-1, codec.id(bytes(any, 5)));
        assertEquals(0, codec.payloadOffset(bytes(any, 5)));
        assertEquals(7, codec.responseLength(7, 0));
        assertThrows(IllegalArgumentException.class, () -> RequestTemplate.echo(0, 1));
    }

    @Test
    void theEchoServerCodecWritesBackEveryByteThroughAnyBuffers() {
        byte[] sent = new byte[10_000];
        new Random(7).nextBytes(sent);
        for (int outCapacity : new int[] {1, 7, 4096}) {
            ServerCodec codec = Protocol.ECHO.newServerCodec(new ServerCodec.Settings(MAX_FRAME, 0), (req, resp) -> {
                throw new AssertionError("echo has no requests");
            });
            ByteBuffer in = ByteBuffer.allocate(333);
            ByteBuffer out = ByteBuffer.allocate(outCapacity);
            ByteArrayOutputStream wire = new ByteArrayOutputStream();
            for (int at = 0; at < sent.length; ) {
                int n = Math.min(in.remaining(), sent.length - at);
                in.put(sent, at, n).flip();
                at += n;
                int r;
                do {
                    r = codec.parse(in, out);
                    wire.write(out.array(), 0, out.position());
                    out.clear();
                } while (r == ServerCodec.OUTPUT_FULL);
                assertEquals(ServerCodec.NEED_INPUT, r);
                assertFalse(in.hasRemaining());
                in.clear();
            }
            assertArrayEquals(sent, wire.toByteArray(), "out of " + outCapacity);
        }
    }

    @Test
    void theFramedServerCodecIsTheSharedParser() {
        ServerCodec codec = Protocol.FRAMED.newServerCodec(new ServerCodec.Settings(MAX_FRAME, 0), (req, resp) -> { });
        assertTrue(codec instanceof FramedRequestParser);
        ByteBuffer in = ByteBuffer.wrap(REQ6);
        ByteBuffer out = ByteBuffer.allocate(1024);
        assertEquals(ServerCodec.NEED_INPUT, codec.parse(in, out));
        assertArrayEquals(RESP6, Arrays.copyOf(out.array(), out.position()));
        assertEquals(ServerCodec.PROTOCOL_ERROR, codec.parse(ByteBuffer.wrap(REQ9), out));
    }
}
