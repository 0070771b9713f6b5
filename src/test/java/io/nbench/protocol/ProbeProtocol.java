package io.nbench.protocol;

import java.nio.ByteBuffer;

/**
 * A protocol that exists only to prove the recipe "one class and one registry line" (issue 26): it is
 * registered by the line in {@code src/test/resources/probe-protocol/META-INF/services/io.nbench.protocol.Protocol},
 * a directory a test puts on a child JVM's class path, as a user would put a jar with a protocol of their own.
 * Its layout is deliberately unlike framed's, so nothing works by accident:
 *
 * <pre>
 * request:  'P' | u32 responseLength | u64 id | u32 payloadLength | payload
 * response: 'p' | u64 id | u32 payloadLength | payload (the request's, truncated or zero-padded)
 * </pre>
 *
 * The class serves as the protocol, its client codec and its server codec: the server side answers whole
 * requests only (it leaves a partial one in the input for the caller to complete), so its only state per
 * connection is the listener it reports each request to.
 */
public final class ProbeProtocol implements Protocol, ClientCodec, ServerCodec {

    private static final int REQUEST_HEADER = 17;
    private static final int RESPONSE_HEADER = 13;

    private final Listener listener;

    /** The protocol, as the registry line makes it. */
    public ProbeProtocol() {
        this((requestBytes, responseBytes) -> { });
    }

    /** A connection's server codec, reporting its requests to {@code listener}. */
    private ProbeProtocol(Listener listener) {
        this.listener = listener;
    }

    @Override
    public String label() {
        return "probe";
    }

    @Override
    public String summary() {
        return "a test's own";
    }

    @Override
    public boolean responsesCarryIds() {
        return true;
    }

    @Override
    public boolean responseIsRequest() {
        return false;
    }

    @Override
    public int minSize() {
        return 0;
    }

    @Override
    public boolean hasRequests() {
        return true;
    }

    @Override
    public ClientCodec client() {
        return this;
    }

    @Override
    public ServerCodec newServerCodec(ServerCodec.Settings settings, Listener listener) {
        return new ProbeProtocol(listener);
    }

    // ---- client side ----

    @Override
    public int requestOverhead(int payloadSize) {
        return REQUEST_HEADER;
    }

    @Override
    public void writeRequestHeader(ByteBuffer target, int payloadSize, int responseLength) {
        target.put((byte) 'P').putInt(responseLength).putLong(0).putInt(payloadSize);
    }

    @Override
    public int requestIdOffset() {
        return 5;
    }

    @Override
    public int responseOverhead() {
        return RESPONSE_HEADER;
    }

    @Override
    public int payloadOffset(WireBytes response) {
        return RESPONSE_HEADER;
    }

    @Override
    public int responseLength(int payloadSize, int responseLength) {
        return responseLength;
    }

    @Override
    public int frame(WireBytes in, int responseLength, int maxFrame) {
        if (in.length() >= 1 && in.getByte(0) != 'p') {
            return BAD;
        }
        if (in.length() < RESPONSE_HEADER) {
            return -RESPONSE_HEADER;
        }
        long length = in.getUnsignedInt(9);
        if (length > maxFrame) {
            return BAD;
        }
        int total = RESPONSE_HEADER + (int) length;
        return in.length() >= total ? total : -total;
    }

    @Override
    public String problem(WireBytes in, int maxFrame) {
        return in.getByte(0) != 'p' ? "a probe response starts with 'p', not " + (in.getByte(0) & 0xFF)
                : "probe response payload " + in.getUnsignedInt(9) + " bytes > max frame " + maxFrame;
    }

    @Override
    public long id(WireBytes response) {
        return response.getLong(1);
    }

    @Override
    public int status(WireBytes response) {
        return Framed.STATUS_OK;
    }

    // ---- server side ----

    @Override
    public int parse(ByteBuffer in, ByteBuffer out) {
        while (in.remaining() >= REQUEST_HEADER) {
            int p = in.position();
            if (in.get(p) != 'P') {
                return PROTOCOL_ERROR;
            }
            int responseLength = in.getInt(p + 1);
            long id = in.getLong(p + 5);
            int payloadLength = in.getInt(p + 13);
            if (in.remaining() < REQUEST_HEADER + payloadLength) {
                return NEED_INPUT;
            }
            if (out.remaining() < RESPONSE_HEADER + responseLength) {
                return OUTPUT_FULL;
            }
            out.put((byte) 'p').putLong(id).putInt(responseLength);
            int copied = Math.min(payloadLength, responseLength);
            out.put(out.position(), in, p + REQUEST_HEADER, copied);
            out.position(out.position() + copied);
            for (int i = copied; i < responseLength; i++) {
                out.put((byte) 0);
            }
            in.position(p + REQUEST_HEADER + payloadLength);
            listener.requestServed(REQUEST_HEADER + payloadLength, RESPONSE_HEADER + responseLength);
        }
        return NEED_INPUT;
    }

    @Override
    public String error() {
        return "not a probe request: it does not start with 'P'";
    }

    @Override
    public String toString() {
        return label();
    }
}
