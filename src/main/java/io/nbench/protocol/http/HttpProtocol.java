package io.nbench.protocol.http;

import io.nbench.protocol.ClientCodec;
import io.nbench.protocol.ClientRequest;
import io.nbench.protocol.Protocol;
import io.nbench.protocol.ServerCodec;

/**
 * HTTP/1.1 (RFC 9112): the client sends a request to a URL ({@link ClientRequest}) and counts responses by
 * status; their bodies are the server's own, so they are matched to requests in order and not verified.
 * (The client half; the server half lives with the server transports.)
 */
public final class HttpProtocol implements Protocol {

    /** The default request when none was given: its codec only sizes buffers before a run's own is built. */
    private final ClientCodec client = new HttpClientCodec(ClientRequest.NONE, false);

    public HttpProtocol() {
    }

    @Override
    public String label() {
        return "http";
    }

    @Override
    public String summary() {
        return "HTTP/1.1";
    }

    @Override
    public boolean responsesCarryIds() {
        return false;
    }

    @Override
    public boolean responseIsRequest() {
        return false;
    }

    @Override
    public int minSize() {
        return 0;
    }

    @Override
    public boolean hasRequests() {
        return true;
    }

    @Override
    public boolean responsesVerifiable() {
        return false;
    }

    @Override
    public ClientCodec client() {
        return client;
    }

    @Override
    public ClientCodec newClientCodec(ClientRequest request, boolean closeEach) {
        return new HttpClientCodec(request, closeEach);
    }

    @Override
    public ServerCodec newServerCodec(int maxFrame, ServerCodec.Listener listener) {
        throw new UnsupportedOperationException("the HTTP server side is not part of this build");
    }

    @Override
    public String toString() {
        return label();
    }
}
