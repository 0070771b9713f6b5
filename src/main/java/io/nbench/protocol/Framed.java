package io.nbench.protocol;

import java.nio.ByteBuffer;

/**
 * The framed protocol's layout and rules, shared by every transport so that they all accept, reject and
 * answer exactly alike. All integers are big-endian and unsigned on the wire.
 *
 * <pre>
 * request:  u32 frameLength (bytes that follow, &gt;= 12) | u32 responseLength | u64 id | payload
 * response: u32 frameLength (bytes that follow)          | u64 id | u8 status | payload (status 0 only)
 * </pre>
 */
public final class Framed {

    /** Bytes of a request before its payload: frameLength, responseLength, id. */
    public static final int REQUEST_HEADER = 16;
    /** The smallest legal request frameLength: responseLength and id. */
    public static final int MIN_REQUEST_FRAME = 12;
    /** Bytes of a response before its payload: frameLength, id, status. */
    public static final int RESPONSE_HEADER = 13;
    /** Bytes of a response's frame that follow frameLength when there is no payload: id and status. */
    public static final int RESPONSE_FIXED = 9;

    public static final int STATUS_OK = 0;
    public static final int STATUS_REJECTED = 1;

    /** Offset of the id within a request. */
    public static final int REQUEST_ID_OFFSET = 8;

    private Framed() {
    }

    /**
     * Checks a request header as read from the wire (both values as unsigned 32-bit numbers held in a
     * long). Returns {@code null} if the request is legal, else the one-line reason to log before
     * closing the connection.
     */
    public static String checkRequest(long frameLength, long responseLength, int maxFrame) {
        String bad = checkFrameLength(frameLength, maxFrame);
        return bad != null ? bad : checkResponseLength(responseLength, maxFrame);
    }

    /**
     * A TLS record of type handshake (22), version 3.x, read as a frameLength: what a TLS client's ClientHello
     * looks like to a plain framed server, which cannot take it for a request (0x1603.... is over 369 MB).
     */
    private static final long TLS_HANDSHAKE_RECORD = 0x1603;

    /** The frameLength check alone, possible as soon as 4 bytes arrived: null or the reason. */
    public static String checkFrameLength(long frameLength, int maxFrame) {
        if (frameLength < MIN_REQUEST_FRAME) {
            return "request frameLength " + frameLength + " < 12";
        }
        if (frameLength - MIN_REQUEST_FRAME > maxFrame) {
            return "request payload " + (frameLength - MIN_REQUEST_FRAME) + " bytes > --max-frame " + maxFrame;
        }
        return null;
    }

    /** The responseLength check alone, possible as soon as 8 bytes arrived: null or the reason. */
    public static String checkResponseLength(long responseLength, int maxFrame) {
        return responseLength > maxFrame ? "responseLength " + responseLength + " > --max-frame " + maxFrame : null;
    }

    /** Reads an unsigned 32-bit value from the int a buffer returned. */
    public static long unsigned(int value) {
        return value & 0xFFFF_FFFFL;
    }

    /** The frameLength field of a response with the given status and requested length. */
    public static int responseFrameLength(int status, int responseLength) {
        return RESPONSE_FIXED + (status == STATUS_OK ? responseLength : 0);
    }

    /** The whole rejected response to request {@code id}: status 1, no payload. */
    public static byte[] rejectedResponse(long id) {
        return ByteBuffer.allocate(RESPONSE_HEADER).putInt(RESPONSE_FIXED).putLong(id)
                .put((byte) STATUS_REJECTED).array();
    }

    /** The frameLength field of a request with this payload size. */
    public static int requestFrameLength(int payloadSize) {
        return MIN_REQUEST_FRAME + payloadSize;
    }

    /**
     * Checks a response header at the client: the frame must hold at least id and status and no more
     * than the largest payload the client asks for. Returns null or the reason.
     */
    public static String checkResponse(long frameLength, int maxFrame) {
        if (frameLength < RESPONSE_FIXED) {
            return "response frameLength " + frameLength + " < 9";
        }
        if (frameLength - RESPONSE_FIXED > maxFrame) {
            return "response payload " + (frameLength - RESPONSE_FIXED) + " bytes > max frame " + maxFrame;
        }
        return null;
    }
}
