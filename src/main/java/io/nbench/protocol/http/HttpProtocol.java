package io.nbench.protocol.http;

import io.nbench.protocol.ClientCodec;
import io.nbench.protocol.ClientRequest;
import io.nbench.protocol.Protocol;
import io.nbench.protocol.ServerCodec;
import java.nio.ByteBuffer;

/**
 * HTTP/1.1 (RFC 9112), both sides. The client sends a request to a URL ({@link ClientRequest}, {@link
 * HttpClientCodec}) and counts responses by status; their bodies are the server's own, so they are matched to
 * requests in order and not verified. The server, so that ab, wrk, curl and any HTTP client can drive it, answers
 * any method and target {@code 200} with {@code --response-size} bytes ({@link HttpRequestParser}), and a request
 * the business pool refuses {@code 503}.
 */
public final class HttpProtocol implements Protocol {

    /** The default request when none was given: its codec only sizes buffers before a run's own is built. */
    private final ClientCodec client = new HttpClientCodec(ClientRequest.NONE, false);

    /** The one instance, {@link Protocol#HTTP}. */
    public HttpProtocol() {
    }

    @Override
    public String label() {
        return "http";
    }

    @Override
    public String summary() {
        return "HTTP/1.1, RFC 9112";
    }

    /** Responses come in request order on a connection and carry nothing of the request's. */
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
    public boolean httpMessages() {
        return true;
    }

    @Override
    public boolean serverSetsResponseSize() {
        return true;
    }

    @Override
    public ByteBuffer rejectedResponse(ByteBuffer response) {
        return HttpResponses.serviceUnavailable();
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
    public ServerCodec newServerCodec(ServerCodec.Settings settings, ServerCodec.Listener listener) {
        return new HttpRequestParser(settings, listener);
    }

    @Override
    public String toString() {
        return label();
    }
}
