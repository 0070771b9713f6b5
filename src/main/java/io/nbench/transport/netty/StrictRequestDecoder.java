package io.nbench.transport.netty;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.LastHttpContent;
import java.util.List;

/**
 * Netty's {@link HttpRequestDecoder}, refusing a request it accepts and the shared parser answers 400
 * (docs/protocol.md): one with a header line folded onto the next (obs-fold, RFC 9112 5.2; Netty 4.2.18's
 * {@code readHeaders} appends such a line to the previous value, with no option to refuse it). Such a request
 * reaches the handler with a failed {@link DecoderResult}, as any request Netty refuses, and the connection's
 * later bytes are dropped.
 *
 * <p>Folds are found in the bytes the decoder consumes while it reads a head: it consumes a head in whole lines
 * and returns once the head is decoded (the body is read by later calls), so those bytes are the request line
 * and header lines, seen once more here; the scan allocates nothing.
 */
final class StrictRequestDecoder extends HttpRequestDecoder {

    /** The next bytes consumed belong to a request's head (from its first byte to the HttpRequest). */
    private boolean inHead = true;
    /** The head's request line has begun (Netty skips control characters and spaces before it). */
    private boolean requestLine;
    /** The last head byte was the LF ending a line after the request line began. */
    private boolean lineStart;
    /** Why the request being decoded is refused, or null. */
    private String refused;
    /** A request was refused: the connection closes, nothing more is decoded. */
    private boolean done;

    StrictRequestDecoder(HttpDecoderConfig config) {
        super(config);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf buffer, List<Object> out) throws Exception {
        if (done) {
            buffer.skipBytes(buffer.readableBytes());
            return;
        }
        int from = buffer.readerIndex();
        int decoded = out.size();
        super.decode(ctx, buffer, out);
        if (inHead) {
            scanHead(buffer, from, buffer.readerIndex());
        }
        for (int i = decoded, n = out.size(); i < n; i++) {
            Object message = out.get(i);
            if (message instanceof HttpRequest request) {
                inHead = false;
                if (refused != null) {
                    if (request.decoderResult().isSuccess()) {
                        request.setDecoderResult(DecoderResult.failure(new IllegalArgumentException(refused)));
                    }
                    done = true;
                }
            }
            if (message instanceof LastHttpContent) {
                inHead = true;
                requestLine = false;
                lineStart = false;
            }
        }
    }

    private void scanHead(ByteBuf buffer, int from, int to) {
        for (int i = from; i < to && refused == null; i++) {
            byte c = buffer.getByte(i);
            if (c == '\n') {
                lineStart = requestLine;
            } else {
                if (lineStart && (c == ' ' || c == '\t')) {
                    refused = "a header line folded onto the next (obs-fold)";
                }
                lineStart = false;
                requestLine |= c > ' ';
            }
        }
    }
}
