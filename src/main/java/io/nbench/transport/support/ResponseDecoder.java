package io.nbench.transport.support;

import io.nbench.transport.ConnectionHandler;
import io.nbench.protocol.Framed;
import io.nbench.protocol.PeerBytes;
import io.nbench.protocol.Protocol;
import io.nbench.protocol.RequestTemplate;
import java.nio.ByteBuffer;

/**
 * Client side of both protocols over a plain {@link ByteBuffer}, for transports without a codec
 * framework (nio, blocking, vthreads): turns every complete response in the buffer into a
 * {@link ConnectionHandler#onResponse} call with a reusable {@link ByteBufferPayloadView} over the
 * buffer itself, so decoding neither copies nor allocates.
 *
 * <p>A response is handed on only when all of its bytes are in the buffer (the view must be
 * contiguous); {@link #needed()} says how large the buffer must be for the next one, so the caller can
 * grow it (once per connection in practice: the caller sizes it for the template's response up front).
 */
public final class ResponseDecoder {

    private final boolean echo;
    private final int echoSize;
    private final int maxFrame;
    private final ConnectionHandler handler;
    private final ByteBufferPayloadView view = new ByteBufferPayloadView();
    private boolean stopped;
    private int needed;
    private String error;

    public ResponseDecoder(RequestTemplate template, int maxFrame, ConnectionHandler handler) {
        this.echo = template.protocol() == Protocol.ECHO;
        this.echoSize = template.payloadSize();
        this.maxFrame = maxFrame;
        this.handler = handler;
        this.needed = initialCapacity(template);
    }

    /** Bytes one response of this template occupies on the wire: the buffer size that avoids growth. */
    public static int initialCapacity(RequestTemplate template) {
        return template.protocol() == Protocol.ECHO ? Math.max(1, template.payloadSize())
                : Framed.RESPONSE_HEADER + template.responseLength();
    }

    /**
     * Hands on every complete response between {@code in}'s position and limit and advances the
     * position past them. Returns false on a protocol error ({@link #error()}, already reported to the
     * handler); the caller closes the connection. Stops early, returning true, once {@link #stop()} was called from a callback.
     */
    public boolean decode(ByteBuffer in) {
        if (echo) {
            return decodeEcho(in);
        }
        while (!stopped) {
            int p = in.position();
            int available = in.limit() - p;
            if (available < 4) {
                needed = 4;
                return true;
            }
            long frameLength = Framed.unsigned(in.getInt(p));
            String bad = Framed.checkResponse(frameLength, maxFrame);
            if (bad != null) {
                return fail(bad, in, p);
            }
            int total = (int) (4 + frameLength);
            if (available < total) {
                needed = total;
                return true;
            }
            long id = in.getLong(p + 4);
            int status = in.get(p + 12) & 0xFF;
            if (status != Framed.STATUS_OK && status != Framed.STATUS_REJECTED) {
                return fail("response status " + status + " is neither 0 (ok) nor 1 (rejected)", in, p);
            }
            in.position(p + total);
            handler.onResponse(id, status, view.wrap(in, p + Framed.RESPONSE_HEADER, total - Framed.RESPONSE_HEADER));
        }
        return true;
    }

    /** Reports the bad frame with the bytes it starts with; the caller closes the connection. */
    private boolean fail(String reason, ByteBuffer in, int at) {
        error = reason;
        handler.onProtocolError(reason, PeerBytes.head(in, at));
        return false;
    }

    private boolean decodeEcho(ByteBuffer in) {
        needed = echoSize;
        if (echoSize == 0) {
            in.position(in.limit());
            return true;
        }
        while (!stopped && in.limit() - in.position() >= echoSize) {
            int p = in.position();
            in.position(p + echoSize);
            handler.onResponse(ConnectionHandler.UNKNOWN_ID, Framed.STATUS_OK, view.wrap(in, p, echoSize));
        }
        return true;
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
