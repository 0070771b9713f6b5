package io.nbench.transport.mina;

import io.nbench.protocol.RequestTemplate;
import io.nbench.transport.ClientConnection;
import io.nbench.transport.ConnectionHandler;
import org.apache.mina.core.buffer.IoBuffer;
import org.apache.mina.core.session.IoSession;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One MINA client connection: encodes requests into IoBuffers and holds this session's decoder.
 *
 * <p>{@code send} may run on any thread and re-entrantly inside a callback on the I/O thread:
 * {@code IoSession.write} is thread-safe and only queues the request for the NioProcessor, and this
 * class keeps no mutable state of its own on the send path (the lock below only keeps a request's two
 * writes together).
 *
 * <p><b>Memory per request in flight.</b> MINA queues every written buffer until the NioProcessor has
 * written it. A request whose constant tail is long ({@link RequestTemplate#sharedTailLength()}) is
 * written as two buffers: its per-message bytes (header and id, a few dozen bytes) and a duplicate of one
 * payload buffer per connection (the duplicate has its own position and shares the bytes), so a window
 * of 1,000 requests of 1 MiB holds 1 MiB of payload, not 1 GiB. The two writes of a request must follow
 * each other in the session's queue, and several sender threads may share a connection, so they are
 * made under a per-connection lock (uncontended unless threads share the connection; MINA's own write
 * path allocates and queues per write anyway). Shorter requests are copied whole, as one buffer.
 */
final class MinaClientConnection implements ClientConnection {

    final ConnectionHandler handler;
    /** HTTP: a server may close the connection while requests are still going out. */
    final boolean http;
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
    /** One per connection when requests share their tail, else null; never written itself, only duplicates. */
    private final IoBuffer sharedTail;
    private final int encoded;
    private final ReentrantLock sendLock;
    /** I/O thread only: the id of the last header reported sent, which its tail's messageSent reports. */
    private long headerId;
    private volatile IoSession session;

    MinaClientConnection(RequestTemplate template, ConnectionHandler handler, boolean notifyWritten, int maxFrame) {
        this.handler = handler;
        this.http = template.protocol().httpMessages();
        this.notifyWritten = notifyWritten;
        this.bytes = template.bytes();
        this.idOffsets = template.idOffsets();
        this.idTrailer = notifyWritten && idOffsets.length == 0;
        this.idAt = idOffsets.length > 0 ? idOffsets[0] : bytes.length;
        int tail = template.sharedTailLength();
        if (tail > 0) {
            this.encoded = template.perMessageLength();
            this.sharedTail = IoBuffer.allocate(tail).put(bytes, encoded, tail).flip();
            this.sendLock = new ReentrantLock();
        } else {
            this.encoded = bytes.length;
            this.sharedTail = null;
            this.sendLock = null;
        }
        this.decoder = new ClientDecoder(handler, template, maxFrame);
    }

    void attach(IoSession session) {
        this.session = session;
    }

    @Override
    public void send(long id) {
        if (sharedTail == null) {
            session.write(encode(id));
            return;
        }
        IoBuffer header = encode(id);
        IoBuffer tail = sharedTail.duplicate();
        sendLock.lock();
        try {
            session.write(header);
            session.write(tail);
        } finally {
            sendLock.unlock();
        }
    }

    private IoBuffer encode(long id) {
        IoBuffer buf = IoBuffer.allocate(idTrailer ? encoded + 8 : encoded);
        buf.put(bytes, 0, encoded);
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
        return buf;
    }

    /** MINA reported {@code messageSent}: the NioProcessor wrote this buffer's last byte to the socket. */
    void written(IoBuffer buf) {
        if (!notifyWritten) {
            return;
        }
        long id;
        if (sharedTail != null) {
            // A request's header and tail are adjacent in the queue and reported in order. Headers are
            // a few dozen bytes, tails at least MIN_SHARED_TAIL: capacity tells them apart. (Written
            // events exist only with --measure send, whose sender threads never send from inside a
            // callback, so no other request's header is reported between a header and its tail.)
            if (buf.capacity() != sharedTail.capacity()) {
                headerId = buf.getLong(idAt);
                return;
            }
            id = headerId;
        } else if (idTrailer) {
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
