package io.nbench.protocol;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * The request one connection sends, encoded once: transports copy {@link #bytes()} into their own
 * buffer and write the message id as 8 big-endian bytes at each offset of {@link #idOffsets()} (the
 * framed header's id and, when the payload holds 8 bytes, the payload's first 8 bytes). Stamping the id
 * into the payload lets the client verify that a response belongs to the message it is credited to,
 * and lets echo responses be matched by id when the size allows.
 *
 * <p>The rest of the payload is a pseudo-random pattern. Its first {@link #CONNECTION_BYTES} bytes (the
 * id stamp's place and the 8 after it) come from a pattern seeded per connection, so a response delivered
 * on the wrong connection fails verification; every byte after them comes from one pattern seeded by
 * nothing but the position, the same for every connection. Why: a transport can then keep one prepared
 * copy of that tail for all its connections and write each request from it after copying in the
 * connection's first bytes ({@link #connectionHeadLength()}) and the id. The nio client's loop does, and
 * the kernel's copy of the requests then reads one buffer that stays in the core's cache instead of a
 * buffer per connection: at 200 connections x window 16 x 1 KiB, 3.2 MiB of them (more than this
 * machine's L2), and that copy ({@code _copy_from_iter}) fell from 11.5 % to 5.9 % of the I/O thread.
 * Payloads of up to 16 bytes are seeded per connection entirely, as before.
 *
 * <p>A payload the user gave ({@link ClientCodec#fixedPayload()}: HTTP's {@code --body}) is sent as given, the
 * same on every connection, and nothing is stamped into it: the server reads the user's bytes, not nbench's. Its
 * responses are the server's own, matched first-in first-out and never checked against the request, so no
 * response is ever verified against it.
 */
public final class RequestTemplate {

    /** Leading payload bytes that differ between connections: the id stamp and 8 bytes seeded per connection. */
    public static final int CONNECTION_BYTES = 16;

    /** Below this, a request's constant tail is copied with its header instead of being shared. */
    public static final int MIN_SHARED_TAIL = 1024;

    private final Protocol protocol;
    private final ClientCodec codec;
    private final int payloadSize;
    private final int responseLength;
    private final byte[] payload;
    private final byte[] bytes;
    private final int[] idOffsets;
    /** Whether the payload's first 8 bytes carry the id: not in a payload the user gave. */
    private final boolean payloadStamped;

    private RequestTemplate(Protocol protocol, ClientCodec codec, int size, int responseLength, long seed) {
        if (size < protocol.minSize()) {
            throw new IllegalArgumentException("--protocol " + protocol.label() + " needs messages of at least "
                    + protocol.minSize() + " byte(s): responses are counted per message size");
        }
        int payloadSize = codec.requestPayloadSize(size);
        this.protocol = protocol;
        this.codec = codec;
        this.payloadSize = payloadSize;
        this.responseLength = codec.responseLength(payloadSize, responseLength);
        byte[] given = codec.fixedPayload();
        this.payloadStamped = given == null && payloadSize >= 8;
        this.payload = given != null ? Arrays.copyOf(given, payloadSize) : pattern(payloadSize, seed);
        if (given == null && payloadSize > CONNECTION_BYTES) {
            // The tail is the same for every connection (see the class comment); the head keeps the seed.
            byte[] shared = pattern(payloadSize, 0);
            System.arraycopy(shared, CONNECTION_BYTES, payload, CONNECTION_BYTES, payloadSize - CONNECTION_BYTES);
        }
        int header = codec.requestOverhead(payloadSize);
        ByteBuffer b = ByteBuffer.allocate(header + payloadSize);
        codec.writeRequestHeader(b, payloadSize, this.responseLength);
        this.bytes = b.put(payload).array();
        int headerId = codec.requestIdOffset();
        // The header's id, if the protocol has one, and the payload's stamp when the payload has room for it.
        this.idOffsets = IntStream.concat(headerId >= 0 ? IntStream.of(headerId) : IntStream.empty(),
                payloadStamped ? IntStream.of(header) : IntStream.empty()).toArray();
    }

    /** A framed request of {@code payloadSize} bytes asking for {@code responseLength} bytes back. */
    public static RequestTemplate framed(int payloadSize, int responseLength, long seed) {
        return of(Protocol.FRAMED, payloadSize, responseLength, seed);
    }

    /** An echo message of {@code size} bytes. */
    public static RequestTemplate echo(int size, long seed) {
        return of(Protocol.ECHO, size, size, seed);
    }

    public static RequestTemplate of(Protocol protocol, int payloadSize, int responseLength, long seed) {
        return new RequestTemplate(protocol, protocol.client(), payloadSize, responseLength, seed);
    }

    /**
     * The request a run's codec ({@link Protocol#newClientCodec}) lays out for a message of {@code size}
     * bytes ({@code --size}; the payload is {@link ClientCodec#requestPayloadSize} of it).
     */
    public static RequestTemplate of(Protocol protocol, ClientCodec codec, int size, int responseLength, long seed) {
        return new RequestTemplate(protocol, codec, size, responseLength, seed);
    }

    public Protocol protocol() {
        return protocol;
    }

    /** The run's client codec, shared by every connection: how requests are laid out and responses framed. */
    public ClientCodec codec() {
        return codec;
    }

    /** Request payload size (the echo message size). */
    public int payloadSize() {
        return payloadSize;
    }

    /** Bytes of response payload asked for (echo: the message size; 0 = one-way). */
    public int responseLength() {
        return responseLength;
    }

    /** The whole encoded request with id 0; do not modify. */
    public byte[] bytes() {
        return bytes;
    }

    /** Total bytes on the wire for one request. */
    public int wireLength() {
        return bytes.length;
    }

    /** Offsets within {@link #bytes()} where the id goes; do not modify. */
    public int[] idOffsets() {
        return idOffsets;
    }

    /**
     * How many leading bytes of {@link #bytes()} differ from one message to the next (the header and the
     * id stamped into the payload); every byte from here on is the same in every request of this
     * template, so a transport may send that tail from one shared buffer instead of a copy per request.
     * At least the header, even where nothing in it changes (an HTTP head before a body the user gave): a
     * request is then never an empty first part and a tail, which MINA's client did not send at all.
     */
    public int perMessageLength() {
        int end = bytes.length - payloadSize;
        for (int at : idOffsets) {
            end = Math.max(end, at + 8);
        }
        return end;
    }

    /**
     * The length of the constant tail a transport should send from one shared buffer per connection, or
     * 0 when it is shorter than {@link #MIN_SHARED_TAIL} and a copy per request costs less than a second
     * buffer per request. What a queued request holds is then at most {@code MIN_SHARED_TAIL} plus its
     * per-message bytes, whatever the message size.
     */
    public int sharedTailLength() {
        int tail = bytes.length - perMessageLength();
        return tail >= MIN_SHARED_TAIL ? tail : 0;
    }

    /**
     * How many leading bytes of {@link #bytes()} may differ from those of another connection's template
     * of the same protocol and payload size (the header, the id stamp and the bytes seeded per
     * connection); the rest is the same in both ({@link #sameTailAs}). The whole request when the payload
     * is {@link #CONNECTION_BYTES} bytes or less.
     */
    public int connectionHeadLength() {
        return bytes.length - payloadSize + Math.min(payloadSize, CONNECTION_BYTES);
    }

    /**
     * Whether {@code other}'s bytes from {@link #connectionHeadLength()} on are this template's: true for
     * any two connections' templates of one codec and payload size.
     */
    public boolean sameTailAs(RequestTemplate other) {
        return other == this || other.codec == codec && other.payloadSize == payloadSize;
    }

    /** Whether the payload carries the id in its first 8 bytes (never one the user gave). */
    public boolean payloadCarriesId() {
        return payloadStamped;
    }

    /** The request with {@code id}, as it goes on the wire, in an array of its own (tests and tools). */
    public byte[] encode(long id) {
        byte[] b = new byte[bytes.length];
        encode(id, b, 0);
        return b;
    }

    /** Writes the request with {@code id} into {@code target} at {@code offset}, for array-based transports. */
    public void encode(long id, byte[] target, int offset) {
        System.arraycopy(bytes, 0, target, offset, bytes.length);
        for (int at : idOffsets) {
            putLong(target, offset + at, id);
        }
    }

    /** The request payload byte at {@code index} for a message with {@code id}. */
    public byte payloadByte(long id, int index) {
        if (index < 8 && payloadStamped) {
            return (byte) (id >>> (56 - 8 * index));
        }
        return payload[index];
    }

    /**
     * The byte a correct response carries at {@code index}: the request's payload truncated or
     * zero-padded to the response length.
     */
    public byte expectedResponseByte(long id, int index) {
        return index < payloadSize ? payloadByte(id, index) : 0;
    }

    /** The pattern bytes (no id), for tests. */
    public byte[] patternCopy() {
        return Arrays.copyOf(payload, payload.length);
    }

    static void putLong(byte[] target, int at, long value) {
        for (int i = 0; i < 8; i++) {
            target[at + i] = (byte) (value >>> (56 - 8 * i));
        }
    }

    private static byte[] pattern(int size, long seed) {
        byte[] p = new byte[size];
        long x = seed * 0x9E3779B97F4A7C15L + 0x632BE59BD9B4E019L;
        for (int i = 0; i < size; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            p[i] = (byte) x;
        }
        return p;
    }
}
