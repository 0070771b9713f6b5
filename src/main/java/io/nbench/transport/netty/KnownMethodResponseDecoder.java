package io.nbench.transport.netty;

import io.nbench.protocol.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseDecoder;
import io.netty.handler.codec.http.HttpStatusClass;

/**
 * Netty's {@link HttpResponseDecoder}, told the run's one request method. Netty's own {@code HttpClientCodec}
 * learns each response's method from a queue its encoder fills as requests go out; nbench writes its requests as
 * prepared bytes (no request object, no encoder, nothing allocated per request), so that queue would stay empty
 * and a HEAD response's {@code Content-Length} would have the decoder wait for a body that never comes. Every
 * request of a run has the same method, so the decoder needs no queue: a response to a HEAD has no body, and
 * otherwise Netty decides as it always does (none for 1xx, 204 and 304).
 */
final class KnownMethodResponseDecoder extends HttpResponseDecoder {

    /**
     * Content is handed on in slices of the read buffer (no copy), so larger pieces only mean fewer objects per
     * response; Netty's default is 8 KiB.
     */
    private static final int MAX_CHUNK = 64 * 1024;

    private final boolean headRequests;

    KnownMethodResponseDecoder(boolean headRequests) {
        super(new HttpDecoderConfig().setMaxInitialLineLength(HttpClientCodec.MAX_HEAD)
                .setMaxHeaderSize(HttpClientCodec.MAX_HEAD).setMaxChunkSize(MAX_CHUNK));
        this.headRequests = headRequests;
    }

    /**
     * Bytes received and not yet decoded (the start of a response still incomplete): what the connection's
     * {@link NettyClientConnection#received} has and no response handed on took, so that each response is counted
     * with its bytes on the wire ({@link HttpResponseReader}). Event loop only.
     */
    int undecoded() {
        return actualReadableBytes();
    }

    @Override
    protected boolean isContentAlwaysEmpty(HttpMessage msg) {
        // An interim 1xx answers no request of its own: Netty's rules, as for any other method.
        if (headRequests && ((HttpResponse) msg).status().codeClass() != HttpStatusClass.INFORMATIONAL) {
            return true;
        }
        return super.isContentAlwaysEmpty(msg);
    }
}
