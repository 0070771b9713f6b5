package io.nbench.protocol;

import java.nio.ByteBuffer;

/**
 * The client side of a wire protocol: how a request is laid out around its payload, and how a response
 * is recognised in the bytes a connection received. Built once per run from the request settings
 * ({@link Protocol#newClientCodec}) and then immutable: one instance is shared by every connection of
 * every client transport (nio, blocking, vthreads, mina; netty too unless it has a codec of its own for
 * the protocol), which call it once per response, so a protocol is written once, not once per transport.
 * It keeps no state between calls: each call reads the response from its first byte.
 *
 * <p>A request is {@link #requestOverhead} header bytes ({@link #writeRequestHeader}) followed by the
 * payload; a response is {@link #payloadOffset} header bytes followed by its payload.
 */
public interface ClientCodec {

    /** What {@link #frame} returns for bytes no response of this protocol can start with. */
    int BAD = Integer.MIN_VALUE;

    /**
     * Set in {@link #status} when the server closes the connection after this response (HTTP's
     * {@code Connection: close}): the client opens a new one rather than counting the close as an error.
     */
    int CLOSES = 1 << 30;

    /** The request payload a message of {@code --size} bytes sends (an HTTP GET: none). */
    default int requestPayloadSize(int size) {
        return size;
    }

    /**
     * The payload every request sends unchanged (HTTP's {@code --body}, {@code --body-file}), or null: a pattern
     * of {@link #requestPayloadSize} bytes with the message id stamped in ({@link RequestTemplate}). Not modified.
     */
    default byte[] fixedPayload() {
        return null;
    }

    /** Bytes of a request before a payload of {@code payloadSize} bytes. */
    int requestOverhead(int payloadSize);

    /** Writes a request's header (with id 0) at {@code target}'s position, {@link #requestOverhead} bytes. */
    void writeRequestHeader(ByteBuffer target, int payloadSize, int responseLength);

    /** Where the request header holds the message id (8 bytes big-endian), or -1 when it holds none. */
    int requestIdOffset();

    /**
     * Bytes of a response before its payload: what buffers are sized by. A protocol whose response heads
     * vary (HTTP) gives a typical size; {@link #payloadOffset} is the exact one.
     */
    int responseOverhead();

    /** Bytes before the payload of the complete response at {@code response}'s start. */
    int payloadOffset(WireBytes response);

    /**
     * The response payload a request of {@code payloadSize} asking for {@code responseLength} bytes gets;
     * for a protocol whose responses are the server's own (HTTP), the size a connection's buffer starts at.
     */
    int responseLength(int payloadSize, int responseLength);

    /**
     * Looks at the response that starts at {@code in}'s first byte ({@code in} holds every byte received
     * so far from there): its whole length on the wire when all of it is in {@code in}; else minus the
     * number of bytes it needs in all (as far as the bytes there tell); or {@link #BAD} when they can start
     * no response of this protocol ({@link #problem} says why).
     *
     * @param responseLength the response payload asked for ({@link RequestTemplate#responseLength()})
     * @param maxFrame       the largest response payload the client accepts
     */
    int frame(WireBytes in, int responseLength, int maxFrame);

    /**
     * {@link #frame(WireBytes, int, int)}, and for a complete response also its {@link #id},
     * {@link #status} and {@link #payloadOffset} into {@code head}: what decoders call, once per response.
     * A protocol whose header must be scanned to find them (HTTP) overrides it to scan once, not once per
     * question; {@code head} is the caller's (one per connection), so the codec keeps no state.
     */
    default int frame(WireBytes in, int responseLength, int maxFrame, ResponseHead head) {
        int total = frame(in, responseLength, maxFrame);
        if (total > 0) {
            head.set(id(in), status(in), payloadOffset(in));
        }
        return total;
    }

    /** Why {@link #frame} returned {@link #BAD} for these bytes: one line. Off the hot path. */
    String problem(WireBytes in, int maxFrame);

    /** The id of the complete response at {@code response}'s start, or -1 when responses carry none. */
    long id(WireBytes response);

    /**
     * The status of the complete response at {@code response}'s start: {@link Framed#STATUS_OK} or
     * rejected, or for HTTP the status code; {@link #success} says which count as answered; {@link #CLOSES}
     * added when the server closes the connection after it.
     */
    int status(WireBytes response);

    /** Whether a response with this {@link #status} is a success (framed: 0; HTTP: 2xx). */
    default boolean success(int status) {
        return status == Framed.STATUS_OK;
    }
}
