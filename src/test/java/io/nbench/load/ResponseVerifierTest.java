package io.nbench.load;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.protocol.RequestTemplate;
import io.nbench.transport.support.ByteBufferPayloadView;
import java.nio.ByteBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A response delivered on the wrong connection fails verification: each connection's payload carries its
 * own pattern (BenchmarkRun seeds connection i with i + 1), so a response carrying another connection's
 * pattern, with the right id and length, is rejected by the full check.
 */
class ResponseVerifierTest {

    private static final long ID = 42;

    private static ByteBufferPayloadView echoed(RequestTemplate t, long id) {
        byte[] wire = new byte[t.wireLength()];
        t.encode(id, wire, 0);
        return new ByteBufferPayloadView().wrap(ByteBuffer.wrap(wire), 0, wire.length);
    }

    @ParameterizedTest(name = "size {0}")
    @ValueSource(ints = {9, 12, 16, 64, 1000})
    void anotherConnectionsPatternFails(int size) {
        RequestTemplate mine = RequestTemplate.echo(size, 1);
        ResponseVerifier v = new ResponseVerifier(mine);
        ByteBufferPayloadView own = echoed(mine, ID);
        assertTrue(v.checkHeader(ID, own) && v.checkBody(own), "its own response passes");
        for (long seed = 2; seed <= 9; seed++) {
            ByteBufferPayloadView other = echoed(RequestTemplate.echo(size, seed), ID);
            assertTrue(v.checkHeader(ID, other), "same id and length: only the pattern tells them apart");
            assertFalse(v.checkBody(other), "connection " + seed + "'s pattern accepted on connection 1");
        }
        assertFalse(v.checkHeader(ID + 1, own), "another message's id fails the header check");
    }
}
