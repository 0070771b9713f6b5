package io.nbench.transport.netty;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.nbench.load.BenchmarkRun;
import io.nbench.load.Driver;
import io.nbench.load.Measure;
import io.nbench.load.RunListener;
import io.nbench.load.RunResult;
import io.nbench.protocol.Protocol;
import io.nbench.protocol.RequestTemplate;
import io.nbench.testkit.TestServers;
import io.nbench.transport.ClientSettings;
import io.nbench.transport.ClientTransport;
import io.nbench.transport.OptionValues;
import io.nbench.transport.RunningServer;
import io.nbench.transport.SocketSettings;
import io.nbench.transport.TransportTesting;
import io.nbench.transport.Vectors;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The Netty client's read-batch buffers belong to the event loop, shared by its connections: a batch
 * buffer one connection wrote is reused by the next connection's batch, with that connection's own first
 * bytes and ids written over the copies, never another connection's bytes.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NettySharedBatchesTest {

    @Test
    void twoConnectionsOfOneLoopTakeTurnsInOneBufferEachSendingItsOwnBytes() {
        PreparedBatches loop = new PreparedBatches();
        Side a = new Side(RequestTemplate.echo(1024, 1), loop);
        Side b = new Side(RequestTemplate.echo(1024, 2), loop);
        try {
            ByteBuf first = null;
            for (int round = 0; round < 5; round++) {
                for (Side s : List.of(a, b)) {
                    List<Long> ids = s.readBatch();
                    ByteBuf out = s.ch.readOutbound();
                    assertArrayEquals(s.expected(ids), bytes(out), "round " + round + ": the batch's bytes");
                    assertNull(s.ch.readOutbound(), "one buffer per batch");
                    if (first == null) {
                        first = out;
                    }
                    assertSame(first, out, "round " + round + ": the loop's one buffer, written and released, reused");
                    out.release(); // written
                }
            }
        } finally {
            a.ch.finishAndReleaseAll();
            b.ch.finishAndReleaseAll();
            loop.release();
        }
    }

    @ParameterizedTest(name = "{0} size={1}")
    @CsvSource({"ECHO, 1000", "FRAMED, 1000", "ECHO, 5000", "FRAMED, 12"})
    void eightConnectionsOnOneEventLoopSendTheirOwnBytes(Protocol protocol, int size) throws Exception {
        // A real server, every response byte verified: a request carrying another connection's first
        // bytes comes back as an integrity error.
        TransportTesting.Case c = new TransportTesting.Case(protocol, size, size, 16, Driver.IO, Measure.RTT);
        RunningServer server = TestServers.get("nio", protocol);
        NettyTransport t = new NettyTransport();
        ClientSettings oneLoop = new ClientSettings(protocol, new SocketSettings(1, true, 0, 0), Duration.ofSeconds(5),
                false, Vectors.MAX_FRAME, OptionValues.resolve(t.options(), Map.of()));
        try (ClientTransport client = t.newClient(oneLoop)) {
            RunResult r = new BenchmarkRun(c.spec(2, 8, 4_000), RunListener.NONE).execute(client, server.address());
            assertEquals(Map.of(), r.errors().nonZero(), "integrity errors are requests with another connection's bytes");
            assertEquals(2 * 2 * 4_000L, r.summary().messages());
        }
    }

    /** A connection on an EmbeddedChannel, gathering into the given loop's buffers, sending per response. */
    private static final class Side {
        final RequestTemplate template;
        final EmbeddedChannel ch = new EmbeddedChannel();
        final List<Long> sent = new ArrayList<>();
        long nextId;

        Side(RequestTemplate template, PreparedBatches loop) {
            this.template = template;
            this.nextId = template.bytes()[9] * 1000L + 1; // ids differ between the sides too
            NettyClientConnection[] self = new NettyClientConnection[1];
            self[0] = new NettyClientConnection(template, ResponsesOnly.of((id, status, payload) -> {
                long next = nextId++;
                sent.add(next);
                self[0].send(next);
            }), false, 16 << 20);
            self[0].initPipeline(ch.pipeline(), loop);
            self[0].attach(ch);
        }

        List<Long> readBatch() {
            sent.clear();
            ByteArrayOutputStream read = new ByteArrayOutputStream();
            for (int i = 0; i < 16; i++) {
                read.writeBytes(template.encode(1_000_000 + i));
            }
            ch.writeInbound(Unpooled.wrappedBuffer(read.toByteArray()));
            ch.checkException();
            assertEquals(16, sent.size());
            return new ArrayList<>(sent);
        }

        byte[] expected(List<Long> ids) {
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            for (long id : ids) {
                expected.writeBytes(template.encode(id));
            }
            return expected.toByteArray();
        }
    }

    private static byte[] bytes(ByteBuf b) {
        byte[] bytes = new byte[b.readableBytes()];
        b.getBytes(b.readerIndex(), bytes);
        return bytes;
    }

}
