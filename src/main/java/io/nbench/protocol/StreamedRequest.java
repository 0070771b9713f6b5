package io.nbench.protocol;

/**
 * A large framed request answered while its bytes arrive, for the codec-framework servers (netty, mina)
 * that otherwise keep a request whole until it is complete and build its response in one buffer.
 *
 * <p>Holding a frame whole is how a Netty or MINA user writes a server, and it is the right thing for the
 * sizes benchmarks use; but a frame may be as large as {@code --max-frame} (16 MiB), and a peer that
 * sends most of one and stops, or asks for a 16 MiB response with a 16-byte request and never reads,
 * would make the server hold that much per connection. So a request whose payload or response is over
 * {@link #WHOLE} streams: the response header goes out when the request header has arrived, each chunk of
 * the payload that belongs in the response is written as it arrives and the rest is skipped, and the
 * zero padding comes from a shared read-only buffer. What a connection holds then no longer depends on
 * {@code --max-frame}. One instance per connection, used by its I/O thread only.
 */
public final class StreamedRequest {

    /** Requests with a payload and a response of at most this many bytes are held and answered whole. */
    public static final int WHOLE = 64 * 1024;

    private boolean active;
    private int payloadLeft;
    private int copyLeft;
    private int padding;
    private int requestBytes;
    private int responseBytes;

    /** True when a request of this frameLength asking for this response length (both checked) streams. */
    public static boolean streams(long frameLength, long responseLength) {
        return frameLength - Framed.MIN_REQUEST_FRAME > WHOLE || responseLength > WHOLE;
    }

    /**
     * Starts a request whose 16-byte header was just consumed (the caller writes the response header
     * when {@code responseLength > 0}).
     */
    public void start(long frameLength, int responseLength) {
        int payload = (int) (frameLength - Framed.MIN_REQUEST_FRAME);
        active = true;
        payloadLeft = payload;
        copyLeft = Math.min(payload, responseLength);
        padding = responseLength - copyLeft;
        requestBytes = (int) (4 + frameLength);
        responseBytes = responseLength > 0 ? Framed.RESPONSE_HEADER + responseLength : 0;
    }

    /** A request is under way: the next bytes are its payload, not a header. */
    public boolean active() {
        return active;
    }

    /** Payload bytes still to arrive. */
    public int payloadLeft() {
        return payloadLeft;
    }

    /**
     * Consumes {@code n} payload bytes (at most {@link #payloadLeft()}); returns how many of them, from
     * the first, belong in the response.
     */
    public int consume(int n) {
        if (n < 0 || n > payloadLeft) {
            throw new IllegalArgumentException("consume " + n + " of " + payloadLeft);
        }
        payloadLeft -= n;
        int copy = Math.min(n, copyLeft);
        copyLeft -= copy;
        return copy;
    }

    /** Zero bytes that end the response, once the payload is consumed. */
    public int padding() {
        return padding;
    }

    /** The request's bytes on the wire (with its length field), for the server's metrics. */
    public int requestBytes() {
        return requestBytes;
    }

    /** The response's bytes on the wire, 0 when none was asked for. */
    public int responseBytes() {
        return responseBytes;
    }

    /** The request's last payload byte was consumed and its padding written: back to reading headers. */
    public void finish() {
        if (payloadLeft != 0) {
            throw new IllegalStateException(payloadLeft + " payload bytes still to come");
        }
        active = false;
    }
}
