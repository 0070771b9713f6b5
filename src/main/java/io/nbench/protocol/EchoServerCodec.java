package io.nbench.protocol;

import java.nio.ByteBuffer;

/**
 * The server side of echo over plain ByteBuffers: every byte read is written back, as it comes. Echo has no
 * requests, only bytes, so it reports none to a listener and never finds an error.
 */
final class EchoServerCodec implements ServerCodec {

    @Override
    public int parse(ByteBuffer in, ByteBuffer out) {
        int n = Math.min(in.remaining(), out.remaining());
        out.put(out.position(), in, in.position(), n);
        out.position(out.position() + n);
        in.position(in.position() + n);
        return in.hasRemaining() ? OUTPUT_FULL : NEED_INPUT;
    }

    @Override
    public String error() {
        return null;
    }
}
