package io.nbench.transport.support;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Takes the responses a protocol's {@link io.nbench.protocol.ServerCodec} writes into its output buffer
 * out of it, one whole response per request, for the transports that offload requests to the business
 * pool: the response must wait for its request's work, so it cannot go out with the read batch. A
 * response larger than the output buffer arrives in pieces ({@code OUTPUT_FULL}): {@link #spill} keeps
 * them until the request is complete. One per connection, used by its I/O thread only.
 */
public final class ResponseCapture {

    private byte[] spilled = new byte[0];
    private int spilledLength;

    /** The parser filled {@code out} (fill mode) in the middle of a response: keep its bytes, empty it. */
    public void spill(ByteBuffer out) {
        int n = out.position();
        if (spilledLength + n > spilled.length) {
            spilled = Arrays.copyOf(spilled, Math.max(spilledLength + n, spilled.length * 2));
        }
        out.flip();
        out.get(spilled, spilledLength, n);
        spilledLength += n;
        out.clear();
    }

    /**
     * The request is complete: its whole response (what was spilled and what {@code out}, in fill mode,
     * holds), or null when it has none (one-way). Empties {@code out}.
     */
    public ByteBuffer take(ByteBuffer out) {
        int n = out.position();
        if (spilledLength + n == 0) {
            return null;
        }
        byte[] response = new byte[spilledLength + n];
        System.arraycopy(spilled, 0, response, 0, spilledLength);
        out.flip();
        out.get(response, spilledLength, n);
        out.clear();
        if (spilled.length > 64 * 1024) {
            spilled = new byte[0]; // a rare large response: do not keep its memory for the connection's life
        }
        spilledLength = 0;
        return ByteBuffer.wrap(response);
    }
}
