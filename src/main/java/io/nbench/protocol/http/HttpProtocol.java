package io.nbench.protocol.http;

import io.nbench.protocol.ClientCodec;
import io.nbench.protocol.Protocol;
import io.nbench.protocol.ServerCodec;
import java.nio.ByteBuffer;

/**
 * HTTP/1.1 (RFC 9112), so that ab, wrk, curl and any HTTP client can drive nbench's server: any method and
 * target is answered {@code 200} with {@code --response-size} bytes ({@link HttpRequestParser}); a request the
 * business pool refuses is answered {@code 503}. The server decides the response size, so requests need no
 * layout of nbench's own.
 */
public final class HttpProtocol implements Protocol {

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

    /** The client half is issue 27's other part ({@code --url}); until it is merged the client refuses HTTP. */
    @Override
    public ClientCodec client() {
        throw new UnsupportedOperationException("nbench's HTTP client is not in this build: drive --protocol http "
                + "with ab, wrk or curl");
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
