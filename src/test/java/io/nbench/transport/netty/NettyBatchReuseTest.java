package io.nbench.transport.netty;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.protocol.RequestTemplate;
import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledDirectByteBuf;
import io.netty.buffer.UnpooledHeapByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Netty client's gathered batches reuse their buffers: once the channel has released a batch
 * buffer (written), the next read batch stamps its ids into the copies of the request already in it,
 * instead of allocating a fresh buffer and copying every request into it. A buffer the channel still
 * holds (the peer not reading) is never written into: its bytes stay those of its own batch.
 */
class NettyBatchReuseTest {

    private static final int BATCHES = 200;
    private static final int WINDOW = 16;

    @ParameterizedTest(name = "{0} B requests")
    @ValueSource(ints = {100, 1024, 5120})
    void writtenBatchBuffersAreReusedNotAllocated(int size) {
        try (Connection c = new Connection(size)) {
            for (int i = 0; i < BATCHES; i++) {
                List<Long> ids = c.readBatch();
                byte[] wire = c.drainOutbound(null);
                assertArrayEquals(c.expected(ids), wire, "the bytes sent in read batch " + i);
            }
            assertTrue(c.alloc.buffers <= PreparedBatches.BUFFERS, c.alloc.buffers + " buffers allocated for "
                    + BATCHES + " read batches of " + WINDOW + " requests of " + size + " B: a buffer per batch");
        }
    }

    @Test
    void aBatchStillQueuedInTheChannelIsNotWrittenInto() {
        try (Connection c = new Connection(1024)) {
            // The peer does not read: each batch's buffer stays with the channel (not released).
            List<ByteBuf> held = new ArrayList<>();
            List<byte[]> sent = new ArrayList<>();
            for (int i = 0; i < PreparedBatches.BUFFERS + 3; i++) {
                List<Long> ids = c.readBatch();
                sent.add(c.expected(ids));
                c.drainOutbound(held);
            }
            assertEquals(PreparedBatches.BUFFERS + 3, held.size(), "one buffer per batch");
            for (int i = 0; i < held.size(); i++) {
                ByteBuf b = held.get(i);
                byte[] bytes = new byte[b.readableBytes()];
                b.getBytes(b.readerIndex(), bytes);
                assertArrayEquals(sent.get(i), bytes, "batch " + i + " as it waits in the channel");
            }
            held.forEach(ByteBuf::release);
            // Once the channel has released them, batches go back to the prepared buffers.
            int before = c.alloc.buffers;
            for (int i = 0; i < 10; i++) {
                List<Long> ids = c.readBatch();
                assertArrayEquals(c.expected(ids), c.drainOutbound(null));
            }
            assertEquals(before, c.alloc.buffers, "buffers allocated once the queued batches were written");
        }
    }

    /** A client connection on an EmbeddedChannel whose handler sends the next request per response. */
    private static final class Connection implements AutoCloseable {
        final RequestTemplate template;
        final CountingAllocator alloc = new CountingAllocator();
        final EmbeddedChannel ch = new EmbeddedChannel();
        final List<Long> sent = new ArrayList<>();
        final NettyClientConnection connection;
        long nextId = 1;

        Connection(int size) {
            template = RequestTemplate.echo(size, 7);
            ch.config().setAllocator(alloc);
            NettyClientConnection[] self = new NettyClientConnection[1];
            connection = new NettyClientConnection(template, ResponsesOnly.of((id, status, payload) -> {
                long next = nextId++;
                sent.add(next);
                self[0].send(next); // as the io driver does, from inside the callback
            }), false, 16 << 20);
            self[0] = connection;
            connection.initPipeline(ch.pipeline());
            connection.attach(ch);
        }

        /** One read holding a window of echoed requests; returns the ids the handler sent for them. */
        List<Long> readBatch() {
            sent.clear();
            ByteArrayOutputStream read = new ByteArrayOutputStream();
            for (int i = 0; i < WINDOW; i++) {
                read.writeBytes(template.encode(1_000_000 + i));
            }
            ch.writeInbound(Unpooled.wrappedBuffer(read.toByteArray()));
            ch.checkException();
            assertEquals(WINDOW, sent.size());
            return new ArrayList<>(sent);
        }

        /**
         * The bytes written since the last call; each buffer released as the channel does once written,
         * or added to {@code hold} (still queued, the peer not reading).
         */
        byte[] drainOutbound(List<ByteBuf> hold) {
            ByteArrayOutputStream wire = new ByteArrayOutputStream();
            for (ByteBuf b; (b = ch.readOutbound()) != null; ) {
                byte[] bytes = new byte[b.readableBytes()];
                b.getBytes(b.readerIndex(), bytes);
                wire.writeBytes(bytes);
                if (hold == null) {
                    b.release();
                } else {
                    hold.add(b);
                }
            }
            return wire.toByteArray();
        }

        byte[] expected(List<Long> ids) {
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            for (long id : ids) {
                expected.writeBytes(template.encode(id));
            }
            return expected.toByteArray();
        }

        @Override
        public void close() {
            ch.finishAndReleaseAll();
        }
    }

    /** Counts the buffers the channel's allocator hands out. */
    private static final class CountingAllocator extends AbstractByteBufAllocator {
        int buffers;

        CountingAllocator() {
            super(true);
        }

        @Override
        protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
            buffers++;
            return new UnpooledHeapByteBuf(this, initialCapacity, maxCapacity);
        }

        @Override
        protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
            buffers++;
            return new UnpooledDirectByteBuf(this, initialCapacity, maxCapacity);
        }

        @Override
        public boolean isDirectBufferPooled() {
            return false;
        }
    }

}
