package io.nbench.transport.netty;

import static io.nbench.testkit.FuzzStreams.MAX_FRAME;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.nbench.protocol.Framed;
import io.nbench.protocol.RequestTemplate;
import io.nbench.testkit.CountingServerEvents;
import io.nbench.testkit.FuzzStreams;
import io.nbench.transport.ConnectionHandler;
import io.nbench.transport.ErrorKind;
import io.nbench.transport.support.IdleConnections;
import io.nbench.transport.PayloadView;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.embedded.EmbeddedChannel;

/**
 * Fuzzes both Netty codecs in an {@link EmbeddedChannel}: the server's {@link FramedServerDecoder} and
 * the client's decoder ({@link NettyClientConnection}), with any byte stream split anywhere. Neither may
 * let an exception out or report one as a connection error; a protocol error closes the channel with a
 * one-line reason; otherwise all but one incomplete frame is consumed; no response is larger than the
 * declared max frame allows.
 */
class NettyDecoderFuzzTest {

    @FuzzTest(maxDuration = "10s")
    void serverDecoder(byte[] input) {
        byte[] stream = FuzzStreams.stream(input);
        CountingServerEvents events = new CountingServerEvents();
        // Given to the constructor so that it sees channelActive, as in a server's pipeline.
        EmbeddedChannel ch = new EmbeddedChannel(new FramedServerDecoder(MAX_FRAME, events,
                IdleConnections.start(null, events, "unused")));
        // Responses are taken out after each piece; the decoder's own pause at the high water mark is
        // ServerContract's business, not this test's.
        ch.config().setWriteBufferWaterMark(new WriteBufferWaterMark(64 << 20, 128 << 20));
        long responses = 0;
        try {
            for (byte[] piece : FuzzStreams.pieces(input)) {
                if (!ch.isOpen()) {
                    break;
                }
                ch.writeInbound(Unpooled.wrappedBuffer(piece));
                if (ch.isOpen()) {
                    ch.flushOutbound();
                }
                for (ByteBuf r; (r = ch.readOutbound()) != null; ) {
                    try {
                        assertTrue(r.readableBytes() <= Framed.RESPONSE_HEADER + MAX_FRAME, "response of " + r.readableBytes() + " bytes");
                        responses += r.readableBytes();
                    } finally {
                        r.release();
                    }
                }
            }
            ch.checkException();
        } finally {
            ch.finishAndReleaseAll();
        }
        if (events.error != null) {
            // Responses to requests before the bad one in the same read are written but not flushed when
            // the decoder closes the channel, so they need not all arrive (the server's choice; noted).
            FuzzStreams.assertOneLine(events.error);
            assertFalse(ch.isOpen(), "protocol error without closing");
            return;
        }
        assertEquals(events.responseBytes, responses, "response bytes written vs served");
        FuzzStreams.assertIncompleteRequest(stream, events.requestBytes, MAX_FRAME);
    }

    @FuzzTest(maxDuration = "10s")
    void clientDecoder(byte[] input) {
        byte[] stream = FuzzStreams.stream(input);
        Handler handler = new Handler();
        NettyClientConnection connection = new NettyClientConnection(RequestTemplate.framed(100, 100, 1), handler, false, MAX_FRAME);
        EmbeddedChannel ch = new EmbeddedChannel();
        connection.initPipeline(ch.pipeline());
        connection.attach(ch);
        try {
            for (byte[] piece : FuzzStreams.pieces(input)) {
                if (!ch.isOpen()) {
                    break;
                }
                ch.writeInbound(Unpooled.wrappedBuffer(piece));
            }
            ch.checkException();
        } finally {
            ch.finishAndReleaseAll();
        }
        assertNull(handler.violation);
        assertNull(handler.otherError, "an exception reached the handler as a connection error");
        if (handler.protocolError != null) {
            FuzzStreams.assertOneLine(handler.protocolError);
            // exceptionCaught reports a DecoderException this way: an exception out of decode is a bug.
            assertFalse(handler.protocolError.startsWith("bad response frame: "), "decode threw: " + handler.protocolError);
            assertTrue(handler.closed, "protocol error without closing");
            return;
        }
        FuzzStreams.assertIncompleteResponse(stream, handler.consumed, MAX_FRAME);
    }

    static final class Handler implements ConnectionHandler {
        long consumed;
        String protocolError;
        String otherError;
        boolean closed;

        /** Recorded, not thrown: the decoder would turn an AssertionError into a connection error. */
        String violation;

        @Override
        public void onResponse(long id, int status, PayloadView payload) {
            if (status != Framed.STATUS_OK && status != Framed.STATUS_REJECTED) {
                violation = "status " + status + " handed on";
            } else if (payload.length() > MAX_FRAME) {
                violation = "payload of " + payload.length() + " bytes handed on";
            }
            consumed += Framed.RESPONSE_HEADER + payload.length();
        }

        @Override
        public void onWritten(long id) {
        }

        @Override
        public void onError(ErrorKind kind, String message) {
            if (kind == ErrorKind.PROTOCOL) {
                protocolError = message;
            } else {
                otherError = kind + ": " + message;
            }
        }

        @Override
        public void onClosed() {
            closed = true;
        }
    }
}
