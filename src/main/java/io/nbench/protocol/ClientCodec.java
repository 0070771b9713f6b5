package io.nbench.protocol;

import java.nio.ByteBuffer;

/**
 * The client side of a wire protocol: how a request is laid out around its payload, and how a response
 * is recognised in the bytes a connection received. Stateless, one instance per protocol, shared by
 * every client transport (nio, blocking, netty, mina), which call it once per response: so a protocol is
 * written once, not once per transport. Verification needs nothing from it: a correct response's payload
 * is the request's payload truncated or zero-padded to the response length in every protocol
 * ({@link RequestTemplate#expectedResponseByte}).
 *
 * <p>A request is {@link #requestOverhead()} header bytes ({@link #writeRequestHeader}) followed by the
 * payload; a response is {@link #payloadOffset()} header bytes followed by its payload.
 */
public interface ClientCodec {

    /** What {@link #frame} returns for bytes no response of this protocol can start with. */
    int BAD = Integer.MIN_VALUE;

    /** Bytes of a request before its payload. */
    int requestOverhead();

    /** Writes a request's header (with id 0) at {@code target}'s position, {@link #requestOverhead()} bytes. */
    void writeRequestHeader(ByteBuffer target, int payloadSize, int responseLength);

    /** Where the request header holds the message id (8 bytes big-endian), or -1 when it holds none. */
    int requestIdOffset();

    /** Bytes of a response before its payload (the response's own overhead). */
    int payloadOffset();

    /** The response payload a request of {@code payloadSize} asking for {@code responseLength} bytes gets. */
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

    /** Why {@link #frame} returned {@link #BAD} for these bytes: one line. Off the hot path. */
    String problem(WireBytes in, int maxFrame);

    /** The id of the complete response at {@code response}'s start, or -1 when responses carry none. */
    long id(WireBytes response);

    /** The status of the complete response at {@code response}'s start ({@link Framed#STATUS_OK} or rejected). */
    int status(WireBytes response);
}
