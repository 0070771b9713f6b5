package io.nbench.transport.mina;

import io.nbench.protocol.Protocol;
import io.nbench.protocol.RequestTemplate;
import io.nbench.transport.ClientConnection;
import io.nbench.transport.ConnectionHandler;
import org.apache.mina.core.buffer.IoBuffer;
import org.apache.mina.core.session.IoSession;

/**
 * One MINA client connection: encodes requests into IoBuffers and holds this session's decoder.
 *
 * <p>{@code send} may run on any thread and re-entrantly inside a callback on the I/O thread:
 * {@code IoSession.write} is thread-safe and only queues the request for the NioProcessor, and this
 * class keeps no mutable state of its own on the send path.
 */
final class MinaClientConnection implements ClientConnection {

    final ConnectionHandler handler;
    final ClientDecoder decoder;
    private final boolean notifyWritten;
    private final byte[] bytes;
    private final int[] idOffsets;
    /**
     * Where {@code messageSent} finds a request's id: its first id offset, or, for an echo message too
     * small to carry the id, 8 bytes kept just past the buffer's limit (never sent).
     */
    private final int idAt;
    private final boolean idTrailer;
    private volatile IoSession session;

    MinaClientConnection(RequestTemplate template, ConnectionHandler handler, boolean notifyWritten, int maxFrame) {
        this.handler = handler;
        this.notifyWritten = notifyWritten;
        this.bytes = template.bytes();
        this.idOffsets = template.idOffsets();
        this.idTrailer = notifyWritten && idOffsets.length == 0;
        this.idAt = idOffsets.length > 0 ? idOffsets[0] : bytes.length;
        boolean echo = template.protocol() == Protocol.ECHO;
        if (echo && template.payloadSize() < 1) {
            throw new IllegalArgumentException("echo messages need at least 1 byte: responses are counted per message size");
        }
        this.decoder = new ClientDecoder(handler, echo, template.payloadSize(), maxFrame);
    }

    void attach(IoSession session) {
        this.session = session;
    }

    @Override
    public void send(long id) {
        IoBuffer buf = IoBuffer.allocate(idTrailer ? bytes.length + 8 : bytes.length);
        buf.put(bytes);
        for (int at : idOffsets) {
            buf.putLong(at, id);
        }
        if (idTrailer) {
            buf.putLong(id);
            buf.flip();
            buf.limit(bytes.length);
        } else {
            buf.flip();
        }
        session.write(buf);
    }

    /** MINA reported {@code messageSent}: the NioProcessor wrote this buffer's last byte to the socket. */
    void written(IoBuffer buf) {
        if (!notifyWritten) {
            return;
        }
        long id;
        if (idTrailer) {
            // MINA frees the buffer only after messageSent returns, so the trailer is still ours.
            int limit = buf.limit();
            buf.limit(idAt + 8);
            id = buf.getLong(idAt);
            buf.limit(limit);
        } else {
            id = buf.getLong(idAt);
        }
        handler.onWritten(id);
    }

    @Override
    public void close() {
        IoSession s = session;
        if (s != null) {
            s.closeNow();
        }
    }
}
