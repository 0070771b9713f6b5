package io.nbench.transport.netty;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.nbench.protocol.RequestTemplate;
import io.nbench.transport.ConnectionHandler;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What the Netty client hands its channel when the io driver sends from inside a read batch: the
 * requests sent while 16 echo responses of one read are decoded go down the pipeline as a few gathered
 * buffers (one write per batch, as the C reference client does), not as one buffer per request, and
 * carry exactly the bytes the requests would have had one by one, in order, tails included.
 */
class NettyGatherTest {

    @ParameterizedTest(name = "{0} B: {1} buffers")
    @CsvSource({
            "1024, 1",   // 16 KiB: one batch buffer
            "5120, 3",   // 6 + 6 + 4 requests per 32 KiB buffer, each complete (no second shared tail)
            "65536, 32", // beyond the gathering limit: header and shared tail per request, as before
    })
    void sendsInsideAReadBatchLeaveAsGatheredBuffers(int size, int expectedBuffers) {
        RequestTemplate template = RequestTemplate.echo(size, 7);
        List<Long> sent = new ArrayList<>();
        NettyClientConnection[] connection = new NettyClientConnection[1];
        ConnectionHandler sendNext = ResponsesOnly.of((id, status, payload) -> {
            long next = 100 + sent.size();
            sent.add(next);
            connection[0].send(next); // as the io driver does, from inside the callback
        });
        connection[0] = new NettyClientConnection(template, sendNext, false, 16 << 20);
        EmbeddedChannel ch = new EmbeddedChannel();
        connection[0].initPipeline(ch.pipeline());
        connection[0].attach(ch);
        try {
            // One read holding 16 echoed requests.
            ByteArrayOutputStream read = new ByteArrayOutputStream();
            for (long id = 1; id <= 16; id++) {
                read.writeBytes(template.encode(id));
            }
            ch.writeInbound(Unpooled.wrappedBuffer(read.toByteArray()));
            assertEquals(16, sent.size());

            ByteArrayOutputStream wire = new ByteArrayOutputStream();
            int buffers = 0;
            for (ByteBuf b; (b = ch.readOutbound()) != null; buffers++) {
                byte[] bytes = new byte[b.readableBytes()];
                b.readBytes(bytes);
                b.release();
                wire.writeBytes(bytes);
            }
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            for (long id : sent) {
                expected.writeBytes(template.encode(id));
            }
            assertArrayEquals(expected.toByteArray(), wire.toByteArray(), "the bytes sent");
            assertEquals(expectedBuffers, buffers, "buffers written for 16 requests of " + size + " bytes");
            ch.checkException();
        } finally {
            ch.finishAndReleaseAll();
        }
        assertNull(ch.readOutbound());
    }

}
