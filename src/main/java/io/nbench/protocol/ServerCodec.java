package io.nbench.protocol;

import java.nio.ByteBuffer;

/**
 * The server side of a wire protocol over plain {@link ByteBuffer}s: reads requests from {@code in} and
 * appends their responses to {@code out}. One instance per connection (it keeps the state of a request
 * whose bytes are still arriving), used by one thread at a time.
 */
public interface ServerCodec {

    /** Every byte of {@code in} was consumed; read more. Output produced so far is in {@code out}. */
    int NEED_INPUT = 0;
    /** {@code out} has no room for the next bytes: write it out, then call again with the same {@code in}. */
    int OUTPUT_FULL = 1;
    /** The peer broke the protocol: {@link #error()} says how; close the connection. */
    int PROTOCOL_ERROR = 2;

    /** Receives one call per request whose last byte was consumed (its response, if any, is in {@code out}). */
    interface Listener {
        void requestServed(int requestBytes, int responseBytes);

        /**
         * Bytes consumed and written back as they came, by a protocol without requests (echo): counted as
         * bytes in and out, since there is no request to count.
         */
        default void bytesEchoed(int bytes) {
        }
    }

    /**
     * Consumes requests from {@code in} (position to limit) and appends their responses to {@code out}
     * (at its position); both positions advance. Returns {@link #NEED_INPUT}, {@link #OUTPUT_FULL} or
     * {@link #PROTOCOL_ERROR}.
     */
    int parse(ByteBuffer in, ByteBuffer out);

    /** Why the last {@link #parse} returned {@link #PROTOCOL_ERROR}. */
    String error();

    /**
     * The smallest output buffer with which {@link #parse} always makes progress (framed: room for a
     * response header); the transport sizes its output buffer at least this large.
     */
    default int minOutput() {
        return 1;
    }
}
