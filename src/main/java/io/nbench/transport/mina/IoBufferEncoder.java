package io.nbench.transport.mina;

import org.apache.mina.core.buffer.IoBuffer;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.filter.codec.ProtocolEncoderAdapter;
import org.apache.mina.filter.codec.ProtocolEncoderOutput;

/**
 * The encoder half of nbench's codecs. nbench encodes straight into {@link IoBuffer}s, which
 * {@code ProtocolCodecFilter} passes by without calling an encoder, so this is only reached if
 * something else is written by mistake.
 */
final class IoBufferEncoder extends ProtocolEncoderAdapter {

    static final IoBufferEncoder INSTANCE = new IoBufferEncoder();

    @Override
    public void encode(IoSession session, Object message, ProtocolEncoderOutput out) {
        if (!(message instanceof IoBuffer)) {
            throw new IllegalArgumentException("nbench writes only IoBuffers, not " + message.getClass().getName());
        }
        out.write(message);
    }
}
