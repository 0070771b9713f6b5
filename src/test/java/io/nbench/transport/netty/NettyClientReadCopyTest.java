package io.nbench.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.protocol.RequestTemplate;
import io.nbench.transport.ConnectionHandler;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.WrappedByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.ByteBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The Netty client decodes responses where the socket read put them: of a pipelined stream whose
 * reads end inside a frame (as they nearly always do with a window of requests in flight), it copies
 * at most the one straddling frame per read, not every received byte again; and every response still
 * arrives whole, in order, with the right id.
 */
class NettyClientReadCopyTest {

    @ParameterizedTest(name = "{0} B responses in reads of {1} B")
    @CsvSource({"5120, 65536", "1024, 16384", "5120, 3000", "1024, 1"})
    void copiesAtMostTheStraddlingFramePerRead(int size, int readSize) {
        RequestTemplate template = RequestTemplate.echo(size, 7);
        int frames = (1 << 20) / size;
        byte[] stream = new byte[frames * size];
        for (int i = 0; i < frames; i++) {
            byte[] one = template.encode(i + 1);
            System.arraycopy(one, 0, stream, i * size, size);
        }
        long[] seen = {0};
        ConnectionHandler check = ResponsesOnly.of((id, status, payload) -> {
            seen[0]++;
            assertEquals(size, payload.length());
            for (int at : template.idOffsets()) {
                assertEquals(seen[0], payload.getLong(at), "id of response " + seen[0]);
            }
            assertEquals(template.bytes()[size - 1], payload.getByte(size - 1), "last byte");
        });
        NettyClientConnection connection = new NettyClientConnection(template, check, false, 16 << 20);
        EmbeddedChannel ch = new EmbeddedChannel();
        connection.initPipeline(ch.pipeline());
        connection.attach(ch);
        long copied = 0;
        int reads = 0;
        try {
            for (int at = 0; at < stream.length; at += readSize, reads++) {
                CountingRead read = new CountingRead(Unpooled.wrappedBuffer(stream, at, Math.min(readSize, stream.length - at)));
                ch.writeInbound(read);
                copied += read.copied;
            }
            ch.checkException();
        } finally {
            assertFalse(ch.finishAndReleaseAll());
        }
        assertEquals(frames, seen[0], "responses");
        assertTrue(copied <= (long) reads * size,
                copied + " bytes copied out of " + reads + " reads of " + stream.length + " bytes");
    }

    /** A read buffer that counts the bytes copied out of it (its array hidden, so copies go through here). */
    private static final class CountingRead extends WrappedByteBuf {
        long copied;

        CountingRead(ByteBuf buf) {
            super(buf);
        }

        @Override
        public boolean hasArray() {
            return false;
        }

        @Override
        public byte[] array() {
            throw new UnsupportedOperationException();
        }

        @Override
        public ByteBuf getBytes(int index, byte[] dst, int dstIndex, int length) {
            copied += length;
            return super.getBytes(index, dst, dstIndex, length);
        }

        @Override
        public ByteBuf getBytes(int index, ByteBuf dst, int dstIndex, int length) {
            copied += length;
            return super.getBytes(index, dst, dstIndex, length);
        }

        @Override
        public ByteBuf getBytes(int index, ByteBuffer dst) {
            copied += dst.remaining();
            return super.getBytes(index, dst);
        }

        // Netty's own copies may read the bytes through a ByteBuffer view instead of getBytes.
        @Override
        public ByteBuffer nioBuffer(int index, int length) {
            copied += length;
            return super.nioBuffer(index, length);
        }

        @Override
        public ByteBuffer[] nioBuffers(int index, int length) {
            copied += length;
            return super.nioBuffers(index, length);
        }

        @Override
        public ByteBuffer internalNioBuffer(int index, int length) {
            copied += length;
            return super.internalNioBuffer(index, length);
        }
    }

}
