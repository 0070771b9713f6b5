package io.nbench.transport.support;

import io.nbench.transport.ConnectionHandler;
import io.nbench.protocol.ClientCodec;
import io.nbench.protocol.PeerBytes;
import io.nbench.protocol.RequestTemplate;
import io.nbench.protocol.ResponseHead;
import io.nbench.protocol.WireBytes;
import java.nio.ByteBuffer;

/**
 * Client side of every protocol over a plain {@link ByteBuffer}, for transports without a codec
 * framework (nio, blocking, vthreads): the protocol's {@link ClientCodec} recognises each complete
 * response in the buffer, which becomes a {@link ConnectionHandler#onResponse} call with a reusable
 * {@link ByteBufferPayloadView} over the buffer itself, so decoding neither copies nor allocates.
 *
 * <p>A response is handed on only when all of its bytes are in the buffer (the view must be
 * contiguous); {@link #needed()} says how large the buffer must be for the next one, so the caller can
 * grow it (once per connection in practice: the caller sizes it for the template's response up front).
 */
public final class ResponseDecoder {

    private final ClientCodec codec;
    private final int responseLength;
    private final int maxFrame;
    private final ConnectionHandler handler;
    private final ByteBufferPayloadView view = new ByteBufferPayloadView();
    /** What frame found besides the length, read at once: one per connection, no object per response. */
    private final ResponseHead head = new ResponseHead();
    private boolean stopped;
    private int needed;
    private String error;

    public ResponseDecoder(RequestTemplate template, int maxFrame, ConnectionHandler handler) {
        this.codec = template.codec();
        this.responseLength = template.responseLength();
        this.maxFrame = maxFrame;
        this.handler = handler;
        this.needed = initialCapacity(template);
    }

    /** Bytes one response of this template occupies on the wire: the buffer size that avoids growth. */
    public static int initialCapacity(RequestTemplate template) {
        return Math.max(1, template.codec().responseOverhead() + template.responseLength());
    }

    /**
     * Hands on every complete response between {@code in}'s position and limit and advances the
     * position past them. Returns false on a protocol error ({@link #error()}, already reported to the
     * handler); the caller closes the connection. Stops early, returning true, once {@link #stop()} was called from a callback.
     */
    public boolean decode(ByteBuffer in) {
        view.wrap(in, 0, 0); // once per read: each response only moves the view (see ByteBufferPayloadView.at)
        while (!stopped) {
            int p = in.position();
            WireBytes available = view.at(p, in.limit() - p);
            int total = codec.frame(available, responseLength, maxFrame, head);
            if (total == ClientCodec.BAD) {
                return fail(codec.problem(available, maxFrame), in, p);
            }
            if (total < 0) {
                needed = -total;
                return true;
            }
            in.position(p + total);
            int payloadOffset = head.payloadOffset();
            handler.onResponse(head.id(), head.status(), view.at(p + payloadOffset, total - payloadOffset), total);
        }
        return true;
    }

    /** Reports the bad frame with the bytes it starts with; the caller closes the connection. */
    private boolean fail(String reason, ByteBuffer in, int at) {
        error = reason;
        handler.onProtocolError(reason, PeerBytes.head(in, at));
        return false;
    }

    /** Total bytes the next, incomplete response needs in the buffer. */
    public int needed() {
        return needed;
    }

    /** Makes {@link #decode} return after the current callback (the connection was closed inside it). */
    public void stop() {
        stopped = true;
    }

    public String error() {
        return error;
    }

    /**
     * Puts a buffer that was just decoded back into fill mode, keeping the bytes of an incomplete
     * response, and returns it, or a larger copy when the next response needs more room than it has.
     */
    public ByteBuffer compactOrGrow(ByteBuffer in, boolean direct) {
        if (needed > in.capacity()) {
            int capacity = Integer.highestOneBit(needed - 1) << 1;
            if (capacity <= 0) {
                capacity = needed;
            }
            ByteBuffer bigger = direct ? ByteBuffer.allocateDirect(capacity) : ByteBuffer.allocate(capacity);
            bigger.put(in);
            return bigger;
        }
        if (in.position() == 0) {
            // Nothing consumed: keep the bytes where they are rather than copying them onto themselves.
            in.position(in.limit()).limit(in.capacity());
        } else {
            in.compact();
        }
        return in;
    }
}
