package io.nbench.transport.nio;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.nbench.protocol.RequestTemplate;
import io.nbench.transport.OptionValues;
import io.nbench.transport.TransportTesting;
import java.nio.ByteBuffer;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The loop's shared write buffer on its own: requests of connections that share a tail, each with its own
 * first bytes and id over the copies another left, and never more bytes than the taking connection's own
 * buffer can hold (what the socket does not take moves there), even after it grew for larger requests.
 */
class SharedWriteBufferTest {

    private final NioConfig config = new NioConfig(OptionValues.resolve(new NioTransport().options(),
            Map.of("nio.buffer", "4k")), TransportTesting.socket());

    @Test
    void eachRequestCarriesItsOwnConnectionsBytesOverAnothersCopies() {
        SharedWriteBuffer shared = new SharedWriteBuffer(config);
        RequestTemplate a = RequestTemplate.framed(100, 50, 1);
        RequestTemplate b = RequestTemplate.framed(100, 60, 2);
        for (RequestTemplate t : new RequestTemplate[] {a, b, a}) {
            ByteBuffer w = shared.take(t, 4096);
            for (long id = 1; id <= 3; id++) {
                shared.append(t, id * 1000 + t.responseLength());
            }
            w.flip();
            for (long id = 1; id <= 3; id++) {
                byte[] want = new byte[t.wireLength()];
                t.encode(id * 1000 + t.responseLength(), want, 0);
                byte[] got = new byte[t.wireLength()];
                w.get(got);
                assertArrayEquals(want, got, "request " + id + " of the template asking " + t.responseLength());
            }
        }
    }

    @Test
    void neverMoreThanTheTakingConnectionsBufferHolds() {
        SharedWriteBuffer shared = new SharedWriteBuffer(config);
        ByteBuffer grown = shared.take(RequestTemplate.echo(10_000, 1), 10_000);
        assertEquals(10_000, grown.limit(), "grown to one large request");
        assertEquals(4096, shared.take(RequestTemplate.echo(1000, 2), 4096).limit(),
                "a connection whose own buffer holds 4 KiB");
        assertEquals(10_000, shared.take(RequestTemplate.echo(10_000, 3), 64).limit(), "one request at least");
    }
}
