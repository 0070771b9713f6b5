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
    /**
     * The peer broke the protocol: {@link #error()} says how. {@code out} may end with the protocol's answer to
     * it (HTTP's 400): write {@code out}, then close the connection. Later calls discard their input.
     */
    int PROTOCOL_ERROR = 2;
    /**
     * The request just served is the connection's last (HTTP's {@code Connection: close}): its response is in
     * {@code out} (or was handed on, {@link Listener#requestServed}); write every response, then close the
     * connection, reading no more requests. Later calls discard their input.
     */
    int CLOSE = 3;

    /**
     * What a connection's codec is configured with, from the server's options.
     *
     * @param maxFrame     the largest request payload (and framed's response length) accepted
     * @param responseSize the response body of a protocol whose requests do not say how large their response
     *                     is ({@link Protocol#serverSetsResponseSize()}, HTTP's {@code --response-size})
     */
    record Settings(int maxFrame, int responseSize) {
    }

    /** Receives one call per request whose last byte was consumed (its response, if any, is in {@code out}). */
    interface Listener {
        void requestServed(int requestBytes, int responseBytes);

        /**
         * Bytes consumed and written back as they came, by a protocol without requests (echo): counted as
         * bytes in and out, since there is no request to count.
         */
        default void bytesEchoed(int bytes) {
        }

        /**
         * The protocol's whole answer to what it refuses is in {@code out} ({@link #PROTOCOL_ERROR} follows):
         * {@code responseBytes} that the peer receives though they answer no request.
         */
        default void refusalAnswered(int responseBytes) {
        }
    }

    /**
     * Consumes requests from {@code in} (position to limit) and appends their responses to {@code out}
     * (at its position); both positions advance. Returns {@link #NEED_INPUT}, {@link #OUTPUT_FULL},
     * {@link #PROTOCOL_ERROR} or {@link #CLOSE}.
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
