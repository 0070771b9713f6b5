package io.nbench.protocol;

import io.nbench.protocol.http.HttpProtocol;
import java.nio.ByteBuffer;

/**
 * A wire protocol nbench speaks (docs/protocol.md): the questions the client and the server's rules ask
 * of it, answered as properties, and its codecs. Members are listed in {@link ProtocolRegistry}; a new
 * protocol is one class implementing this (and its codecs) plus one line there, or, from a jar of its
 * own, one line in {@code META-INF/services/io.nbench.protocol.Protocol}.
 *
 * <p>Each member is one instance: compare with {@code ==}.
 */
public interface Protocol {

    /** Length-prefixed requests with a response length and an id; responses carry the id and a status. */
    Protocol FRAMED = new FramedProtocol();
    /** RFC 862: the server writes back every byte it reads; responses are counted per message size. */
    Protocol ECHO = new EchoProtocol();
    /**
     * HTTP/1.1 (RFC 9112): requests to a URL, responses counted by status; the server answers any method and
     * path with 200 and {@code --response-size} bytes.
     */
    Protocol HTTP = new HttpProtocol();

    /** The name {@code --protocol} takes, lower case. */
    String label();

    /** A few words for {@code --protocol}'s help: what its messages hold, e.g. "RFC 862". */
    String summary();

    /**
     * Whether every response names the request it answers (framed's id). When not, the client matches
     * responses by the id it stamped in the payload when the payload has room (8 bytes), else first-in
     * first-out.
     */
    boolean responsesCarryIds();

    /**
     * Whether the response is the request itself (echo): the response size is then the request size,
     * and {@code --response-size} cannot differ.
     */
    boolean responseIsRequest();

    /** The smallest {@code --size} this protocol can count responses of (echo: 1 byte). */
    int minSize();

    /**
     * Whether the server sees requests it can process (framed) rather than only bytes to return (echo):
     * {@code --work} and {@code --executor-threads} need requests.
     */
    boolean hasRequests();

    /**
     * Whether its frames are {@link Framed}'s layout, byte for byte: the server transports with a codec
     * framework of their own (netty, mina) then answer it with their own decoder of that layout, tuned to the
     * framework's buffers, instead of running {@link #newServerCodec} over copies (see NettyServer).
     */
    default boolean framedLayout() {
        return false;
    }

    /**
     * Whether its messages are HTTP/1.1's (RFC 9112): a server transport with an HTTP codec of its own (netty's
     * HttpRequestDecoder and HttpResponseEncoder) serves it with that, as its users write an HTTP server,
     * instead of running {@link #newServerCodec}.
     */
    default boolean httpMessages() {
        return false;
    }

    /**
     * Whether the server decides how large a response is ({@code --response-size}, HTTP) rather than each
     * request saying so (framed) or being its own response (echo).
     */
    default boolean serverSetsResponseSize() {
        return false;
    }

    /**
     * What the server answers, in the place of {@code response} (the whole response the protocol's server codec
     * wrote for a request), when its business pool refuses the request: framed's rejected frame with the
     * request's id, HTTP's 503. Only protocols with requests ({@link #hasRequests()}) are ever asked. Error
     * path: it may allocate.
     */
    default ByteBuffer rejectedResponse(ByteBuffer response) {
        throw new UnsupportedOperationException(label() + " has no requests to reject");
    }

    /**
     * Whether a correct response's payload follows from the request (the request's payload truncated or
     * zero-padded: framed and echo), so that {@code --verify} can check it. HTTP responses carry the
     * server's own body: they are counted by status, matched to requests in order, and not verified.
     */
    default boolean responsesVerifiable() {
        return true;
    }

    /** The client side: request layout and response recognition, shared by every client transport. */
    ClientCodec client();

    /**
     * The client side for one run: {@link #client()} unless requests depend on {@code request} (HTTP's
     * method, URL and headers). {@code closeEach}: every request asks the server to close the connection
     * after its response ({@code --requests-per-connection 1}).
     */
    default ClientCodec newClientCodec(ClientRequest request, boolean closeEach) {
        return client();
    }

    /** The server side for one connection, over plain ByteBuffers, configured by the server's options. */
    ServerCodec newServerCodec(ServerCodec.Settings settings, ServerCodec.Listener listener);

    /** The registered protocol of that name, ignoring case, or {@link IllegalArgumentException} naming them all. */
    static Protocol parse(String text) {
        return ProtocolRegistry.load().get(text);
    }
}
