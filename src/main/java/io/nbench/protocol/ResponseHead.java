package io.nbench.protocol;

/**
 * What {@link ClientCodec#frame(WireBytes, int, int, ResponseHead)} learned about a complete response
 * besides its length: its id, status and payload offset, found in the same pass as its end. One mutable
 * instance per connection, owned by the decoder that reads it right after framing: the codec itself stays
 * stateless and shared, and no object is made per response.
 */
public final class ResponseHead {

    private long id;
    private int status;
    private int payloadOffset;

    public void set(long id, int status, int payloadOffset) {
        this.id = id;
        this.status = status;
        this.payloadOffset = payloadOffset;
    }

    /** {@link ClientCodec#id}. */
    public long id() {
        return id;
    }

    /** {@link ClientCodec#status}. */
    public int status() {
        return status;
    }

    /** {@link ClientCodec#payloadOffset}. */
    public int payloadOffset() {
        return payloadOffset;
    }
}
