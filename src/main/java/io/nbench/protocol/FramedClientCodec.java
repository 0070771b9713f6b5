package io.nbench.protocol;

import java.nio.ByteBuffer;

/** The client side of the framed protocol ({@link Framed}): a 16-byte request header, a 13-byte response header. */
final class FramedClientCodec implements ClientCodec {

    @Override
    public int requestOverhead(int payloadSize) {
        return Framed.REQUEST_HEADER;
    }

    @Override
    public void writeRequestHeader(ByteBuffer target, int payloadSize, int responseLength) {
        target.putInt(Framed.requestFrameLength(payloadSize)).putInt(responseLength).putLong(0);
    }

    @Override
    public int requestIdOffset() {
        return Framed.REQUEST_ID_OFFSET;
    }

    @Override
    public int responseOverhead() {
        return Framed.RESPONSE_HEADER;
    }

    @Override
    public int payloadOffset(WireBytes response) {
        return Framed.RESPONSE_HEADER;
    }

    @Override
    public int responseLength(int payloadSize, int responseLength) {
        return responseLength;
    }

    /**
     * The frame's length once its first 4 bytes are there, checked at once (a header no response can
     * have is refused before waiting for bytes that may never come); its status once it is whole.
     */
    @Override
    public int frame(WireBytes in, int responseLength, int maxFrame) {
        int available = in.length();
        if (available < 4) {
            return -4;
        }
        long frameLength = in.getUnsignedInt(0);
        if (Framed.checkResponse(frameLength, maxFrame) != null) {
            return BAD;
        }
        int total = (int) (4 + frameLength);
        if (available < total) {
            return -total;
        }
        int status = status(in);
        return status == Framed.STATUS_OK || status == Framed.STATUS_REJECTED ? total : BAD;
    }

    @Override
    public String problem(WireBytes in, int maxFrame) {
        String bad = Framed.checkResponse(in.getUnsignedInt(0), maxFrame);
        return bad != null ? bad : "response status " + status(in) + " is neither 0 (ok) nor 1 (rejected)";
    }

    @Override
    public long id(WireBytes response) {
        return response.getLong(4);
    }

    @Override
    public int status(WireBytes response) {
        return response.getByte(12) & 0xFF;
    }
}
