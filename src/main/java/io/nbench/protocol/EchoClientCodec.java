package io.nbench.protocol;

import java.nio.ByteBuffer;

/** The client side of echo: a request is its payload; a response is the next message-size bytes. */
final class EchoClientCodec implements ClientCodec {

    @Override
    public int requestOverhead(int payloadSize) {
        return 0;
    }

    @Override
    public void writeRequestHeader(ByteBuffer target, int payloadSize, int responseLength) {
    }

    @Override
    public int requestIdOffset() {
        return -1;
    }

    @Override
    public int responseOverhead() {
        return 0;
    }

    @Override
    public int payloadOffset(WireBytes response) {
        return 0;
    }

    @Override
    public int responseLength(int payloadSize, int responseLength) {
        return payloadSize;
    }

    /** Any bytes are an echo: a response is complete once the message size is there. */
    @Override
    public int frame(WireBytes in, int responseLength, int maxFrame) {
        if (responseLength < 1) {
            throw new IllegalArgumentException("echo messages need at least 1 byte: responses are counted per "
                    + "message size");
        }
        return in.length() >= responseLength ? responseLength : -responseLength;
    }

    @Override
    public String problem(WireBytes in, int maxFrame) {
        throw new IllegalStateException("every byte is part of an echo");
    }

    @Override
    public long id(WireBytes response) {
        return -1;
    }

    @Override
    public int status(WireBytes response) {
        return Framed.STATUS_OK;
    }
}
