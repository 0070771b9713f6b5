package io.nbench.protocol;

import java.nio.ByteBuffer;

/**
 * The server side of echo over plain ByteBuffers: every byte read is written back, as it comes. Echo has no
 * requests, only bytes, so it reports the bytes it passed back ({@link Listener#bytesEchoed}) and never
 * finds an error.
 */
final class EchoServerCodec implements ServerCodec {

    private final Listener listener;

    EchoServerCodec(Listener listener) {
        this.listener = listener;
    }

    @Override
    public int parse(ByteBuffer in, ByteBuffer out) {
        int n = Math.min(in.remaining(), out.remaining());
        out.put(out.position(), in, in.position(), n);
        out.position(out.position() + n);
        in.position(in.position() + n);
        if (n > 0) {
            listener.bytesEchoed(n);
        }
        return in.hasRemaining() ? OUTPUT_FULL : NEED_INPUT;
    }

    @Override
    public String error() {
        return null;
    }
}
