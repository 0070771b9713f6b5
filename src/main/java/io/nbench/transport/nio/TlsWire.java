package io.nbench.transport.nio;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.concurrent.locks.Lock;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSession;

/**
 * TLS between a connection's buffers and its socket channel, with the JDK's {@link SSLEngine}: what is read is
 * unwrapped into the buffer the connection parses from, what the connection writes is wrapped into records on
 * their way to the socket. Its three buffers are made once per connection, so the steady state allocates nothing
 * of its own; the engine does, per record (JFR: mostly the JDK's AES-GCM, twice as much with direct buffers as
 * with heap ones; see docs/transports.md).
 *
 * <p>The handshake is driven by the same calls: a server's first reads answer the client's flights (delegated
 * tasks run inline: they are short with the curves and ciphers TLS 1.3 uses); a client runs {@link #handshake}
 * before its connection is used. A handshake flight is a few KiB into a fresh socket, which takes it whole: a
 * read never waits for OP_WRITE.
 *
 * <p>Threads: the server's connection is its loop's alone. The client's reader (the loop) unwraps while senders
 * wrap under the connection's lock; the engine allows one of each at once. The reader takes that lock only when
 * the engine asks it to send something itself (a TLS 1.3 key update), which steady traffic never does.
 */
final class TlsWire implements Wire {

    private static final ByteBuffer NOTHING = ByteBuffer.allocate(0);

    private final SocketChannel channel;
    private final SSLEngine engine;
    /** Null on the server (one thread); the client connection's send lock, held by every writer. */
    private final Lock writeLock;
    /** Records read but not yet unwrapped (fill mode). */
    private final ByteBuffer netIn;
    /** Records wrapped but not yet written (fill mode). */
    private final ByteBuffer netOut;
    /** Plaintext unwrapped that did not fit the reader's buffer, given out first by the next read (read mode). */
    private final ByteBuffer appIn;
    private final int recordPlaintext;
    /** The last unwrap wanted more bytes than {@link #netIn} held: nothing there to give out without a read. */
    private boolean starved = true;
    /** The peer's close_notify arrived, or the stream ended. */
    private boolean ended;
    /** The engine reported its first handshake FINISHED (by a wrap or an unwrap). */
    private boolean established;

    TlsWire(SocketChannel channel, SSLEngine engine, Lock writeLock, NioConfig config) {
        this.channel = channel;
        this.engine = engine;
        this.writeLock = writeLock;
        SSLSession session = engine.getSession();
        this.netIn = config.allocate(session.getPacketBufferSize());
        this.netOut = config.allocate(session.getPacketBufferSize());
        this.recordPlaintext = session.getApplicationBufferSize();
        this.appIn = config.allocate(recordPlaintext).flip();
    }

    @Override
    public boolean handshaking() {
        return !established;
    }

    SSLEngine engine() {
        return engine;
    }

    /**
     * Moves the client's handshake on as far as the socket allows: the interest ({@link SelectionKey#OP_READ} or
     * {@link SelectionKey#OP_WRITE}) to wait for, or 0 once it is done and its last flight written.
     */
    int handshake() throws IOException {
        while (true) {
            switch (engine.getHandshakeStatus()) {
                case NEED_TASK -> runTasks();
                case NEED_WRAP -> {
                    wrap(NOTHING);
                    if (!flushNet()) {
                        return SelectionKey.OP_WRITE;
                    }
                }
                case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
                    if (unwrapInto(null) == SSLEngineResult.Status.BUFFER_UNDERFLOW) {
                        int n = channel.read(netIn);
                        if (n < 0) {
                            throw new EOFException("the server closed the connection");
                        }
                        if (n == 0) {
                            return SelectionKey.OP_READ;
                        }
                    }
                }
                default -> {
                    return flushNet() ? 0 : SelectionKey.OP_WRITE;
                }
            }
        }
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        int start = dst.position();
        drainAppIn(dst);
        while (dst.hasRemaining() && !ended) {
            if (!answerEngine()) {
                break;
            }
            SSLEngineResult.Status status = unwrapInto(dst);
            if (status == SSLEngineResult.Status.BUFFER_UNDERFLOW) {
                int n = channel.read(netIn);
                if (n < 0) {
                    ended = true;
                } else if (n == 0) {
                    break;
                }
            } else if (status == SSLEngineResult.Status.CLOSED) {
                ended = true;
            }
        }
        int n = dst.position() - start;
        return n == 0 && ended ? -1 : n;
    }

    /** Unwraps one record into {@code dst} if a whole record fits, else through {@link #appIn} (null: into it). */
    private SSLEngineResult.Status unwrapInto(ByteBuffer dst) throws IOException {
        boolean direct = dst != null && dst.remaining() >= recordPlaintext;
        ByteBuffer target = direct ? dst : appIn.compact();
        SSLEngineResult r;
        netIn.flip();
        try {
            r = engine.unwrap(netIn, target);
        } finally {
            netIn.compact();
            if (!direct) {
                appIn.flip();
            }
        }
        established |= r.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.FINISHED;
        if (!direct && dst != null) {
            drainAppIn(dst);
        }
        if (r.getStatus() == SSLEngineResult.Status.BUFFER_OVERFLOW) {
            throw new SSLException("a TLS record larger than the session's " + recordPlaintext + " bytes");
        }
        starved = r.getStatus() == SSLEngineResult.Status.BUFFER_UNDERFLOW;
        return r.getStatus();
    }

    private void drainAppIn(ByteBuffer dst) {
        int n = Math.min(appIn.remaining(), dst.remaining());
        if (n > 0) {
            dst.put(dst.position(), appIn, appIn.position(), n);
            dst.position(dst.position() + n);
            appIn.position(appIn.position() + n);
        }
    }

    /**
     * What the engine needs before the next unwrap: its tasks run, its own records sent (a server's handshake
     * flights, a key update). False when those records could not all be written now.
     */
    private boolean answerEngine() throws IOException {
        while (true) {
            SSLEngineResult.HandshakeStatus hs = engine.getHandshakeStatus();
            if (hs == SSLEngineResult.HandshakeStatus.NEED_TASK) {
                runTasks();
            } else if (hs == SSLEngineResult.HandshakeStatus.NEED_WRAP) {
                if (writeLock != null) {
                    writeLock.lock();
                }
                try {
                    wrap(NOTHING);
                    if (!flushNet()) {
                        return false;
                    }
                } finally {
                    if (writeLock != null) {
                        writeLock.unlock();
                    }
                }
            } else {
                return true;
            }
        }
    }

    private void runTasks() {
        Runnable task;
        while ((task = engine.getDelegatedTask()) != null) {
            task.run();
        }
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        int start = src.position();
        if (!flushNet()) {
            return 0;
        }
        while (src.hasRemaining()) {
            if (wrap(src) == SSLEngineResult.Status.BUFFER_OVERFLOW && netOut.position() == 0) {
                throw new SSLException("a TLS record larger than the session's packet size");
            }
            if (!flushNet()) {
                break;
            }
        }
        return src.position() - start;
    }

    private SSLEngineResult.Status wrap(ByteBuffer src) throws IOException {
        SSLEngineResult r = engine.wrap(src, netOut);
        established |= r.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.FINISHED;
        if (r.getStatus() == SSLEngineResult.Status.CLOSED && src != NOTHING) {
            throw new SSLException("the TLS session is closed");
        }
        if (r.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NEED_TASK) {
            runTasks();
        }
        return r.getStatus();
    }

    /** Writes {@link #netOut}; true when all of it went. */
    private boolean flushNet() throws IOException {
        if (netOut.position() == 0) {
            return true;
        }
        netOut.flip();
        try {
            channel.write(netOut);
            return !netOut.hasRemaining();
        } finally {
            netOut.compact();
        }
    }

    @Override
    public boolean flushed() {
        return netOut.position() == 0;
    }

    @Override
    public boolean buffered() {
        return appIn.hasRemaining() || (!starved && netIn.position() > 0);
    }

    /** Sends close_notify if the socket takes it now (a peer that reads no more will not get it). */
    @Override
    public void closing() {
        engine.closeOutbound();
        try {
            wrap(NOTHING);
            flushNet();
        } catch (IOException | RuntimeException e) {
            // the peer is gone or the session broken: nothing to say goodbye to
        }
    }
}
