package io.nbench.transport.blocking;

import io.nbench.protocol.RequestTemplate;
import io.nbench.transport.ClientConnection;
import io.nbench.transport.ConnectionHandler;
import io.nbench.transport.ErrorKind;
import io.nbench.transport.support.ResponseDecoder;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One blocking client connection: a reader thread that decodes responses and calls the handler, and
 * sends written by whichever thread calls {@link #send}.
 *
 * <p><b>The write lock is inherent to blocking sockets</b>: a write blocks until the kernel took every
 * byte, so two threads sending on one connection must take turns or their bytes would interleave. It
 * is a {@link ReentrantLock}, not {@code synchronized}, so that a virtual thread blocked in a write
 * while holding it does not pin its carrier (JDK 21-23). Uncontended it costs one CAS and no allocation.
 *
 * <p>The reader thread must never wait for that lock: the holder may be blocked in a write that only
 * completes once the server can send its responses, which it can only do once we read them. So when
 * the io driver sends from a response callback and the lock is taken, the reader leaves the id in
 * {@link IdQueue} and goes on reading; every thread that releases the lock then checks the queue and
 * writes what it finds (the check after unlocking closes the race with an id added just before).
 * Sends the reader makes while decoding one read are gathered and written once at the end of the read.
 * What cannot be avoided: with the io driver the reader itself writes, and a write blocked on a full
 * socket stops it reading. That needs more than {@code window * size} bytes in flight than both sides'
 * socket buffers hold; the threads driver, or the nio transport, has no such limit.
 *
 * <p>"Written" ({@code --measure send}) means {@code OutputStream.write} of the request returned: the
 * kernel accepted its last byte. With it on, every request is written on its own (no gathering).
 */
final class BlockingClientConnection implements ClientConnection {

    private final Socket socket;
    private final InputStream input;
    private final OutputStream output;
    private final ConnectionHandler handler;
    private final RequestTemplate template;
    private final ResponseDecoder decoder;
    private final boolean notifyWritten;
    private final int wire;
    private final int bufferSize;

    private final ReentrantLock lock = new ReentrantLock();
    /** Guarded by lock. */
    private final byte[] buffer;
    private int count;
    private final IdQueue handoff = new IdQueue();

    private Thread reader;
    /** Reader thread only. */
    private boolean inBatch;
    private boolean flushPending;

    private final AtomicBoolean failed = new AtomicBoolean();
    private volatile ErrorKind failureKind;
    private volatile String failureMessage;
    private volatile boolean closing;
    private final Consumer<BlockingClientConnection> onTerminated;

    /**
     * @param socket what the protocol's bytes go through (with --tls, the SSLSocket)
     * @param raw    the connected socket under it, closed to end a blocked read (the same socket without TLS)
     */
    BlockingClientConnection(Socket socket, Socket raw, BlockingConfig config, RequestTemplate template,
                             ConnectionHandler handler, int maxFrame, boolean notifyWritten,
                             Consumer<BlockingClientConnection> onTerminated) throws IOException {
        this.socket = raw;
        this.input = socket.getInputStream();
        this.output = socket.getOutputStream();
        this.handler = handler;
        this.template = template;
        this.decoder = new ResponseDecoder(template, maxFrame, handler);
        this.notifyWritten = notifyWritten;
        this.wire = template.wireLength();
        this.bufferSize = Math.max(config.bufferSize, ResponseDecoder.initialCapacity(template));
        this.buffer = new byte[Math.max(config.bufferSize, wire)];
        this.onTerminated = onTerminated;
    }

    void start(Thread readerThread) {
        this.reader = readerThread;
        readerThread.start();
    }

    Thread reader() {
        return reader;
    }

    // ---- sending ----------------------------------------------------------------------------------

    @Override
    public void send(long id) {
        if (closing) {
            throw new IllegalStateException("connection is closed");
        }
        boolean onReader = Thread.currentThread() == reader;
        if (onReader) {
            if (!lock.tryLock()) {
                handoff.add(id);
                drainHandoff();
                return;
            }
        } else {
            lock.lock();
        }
        String failure = null;
        try {
            appendLocked(id);
            if (onReader && inBatch && !notifyWritten) {
                flushPending = true;
            } else {
                writeLocked();
            }
        } catch (IOException e) {
            failure = oneLine(e);
        } finally {
            lock.unlock();
        }
        if (failure != null) {
            fail(ErrorKind.WRITE, "write failed: " + failure);
            return;
        }
        if (notifyWritten) {
            handler.onWritten(id);
        }
        drainHandoff();
    }

    private void appendLocked(long id) throws IOException {
        if (count + wire > buffer.length) {
            writeLocked();
        }
        template.encode(id, buffer, count);
        count += wire;
    }

    private void writeLocked() throws IOException {
        if (count > 0) {
            int n = count;
            count = 0;
            output.write(buffer, 0, n);
        }
    }

    /** Writes the ids the reader left behind, unless another thread holds the lock (it will do it). */
    private void drainHandoff() {
        while (!handoff.isEmpty() && lock.tryLock()) {
            String failure = null;
            try {
                long id;
                while ((id = handoff.poll()) != IdQueue.NONE) {
                    appendLocked(id);
                    if (notifyWritten) {
                        writeLocked();
                        handler.onWritten(id);
                    }
                }
                writeLocked();
            } catch (IOException e) {
                failure = oneLine(e);
            } finally {
                lock.unlock();
            }
            if (failure != null) {
                fail(ErrorKind.WRITE, "write failed: " + failure);
                return;
            }
        }
    }

    /** Reader, at the end of a read: writes the sends gathered during it. */
    private void flushGathered() {
        flushPending = false;
        if (lock.tryLock()) {
            // Otherwise the holder writes the whole buffer, ours included, before it unlocks.
            String failure = null;
            try {
                writeLocked();
            } catch (IOException e) {
                failure = oneLine(e);
            } finally {
                lock.unlock();
            }
            if (failure != null) {
                fail(ErrorKind.WRITE, "write failed: " + failure);
                return;
            }
        }
        drainHandoff();
    }

    // ---- the reader thread ------------------------------------------------------------------------

    void read() {
        ByteBuffer in = ByteBuffer.allocate(bufferSize);
        try {
            while (!closing) {
                int n = input.read(in.array(), in.position(), in.remaining());
                if (n < 0) {
                    break;
                }
                in.position(in.position() + n);
                in.flip();
                boolean ok;
                inBatch = true;
                // The responses of this read: one clock reading, and none of them completes a request sent
                // during it (they were read before it went out).
                handler.onReadStart();
                try {
                    ok = decoder.decode(in);
                } finally {
                    inBatch = false;
                    handler.onReadEnd();
                }
                if (!ok) {
                    fail(null, null); // the decoder reported the bad frame with its bytes
                    break;
                }
                in = decoder.compactOrGrow(in, false);
                if (flushPending) {
                    flushGathered();
                }
            }
        } catch (IOException e) {
            if (!closing) {
                fail(ErrorKind.READ, "read failed: " + oneLine(e));
            }
        } catch (RuntimeException e) {
            fail(ErrorKind.READ, "response handler failed: " + e);
        } finally {
            closing = true;
            closeSocket();
            ErrorKind kind = failureKind;
            try {
                if (kind != null) {
                    handler.onError(kind, failureMessage);
                }
                handler.onClosed();
            } finally {
                onTerminated.accept(this);
                handler.onReaderExit(); // this thread's last word: it was this connection's alone
            }
        }
    }

    // ---- closing ----------------------------------------------------------------------------------

    @Override
    public void close() {
        closing = true;
        if (Thread.currentThread() == reader) {
            decoder.stop();
        }
        closeSocket();
    }

    /** Records the first error (the reader reports it, then onClosed) and closes the socket. */
    private void fail(ErrorKind kind, String message) {
        if (failed.compareAndSet(false, true) && !closing) {
            failureMessage = message;
            failureKind = kind;
        }
        close();
    }

    private void closeSocket() {
        try {
            socket.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    static String oneLine(Throwable e) {
        String m = e.getMessage();
        if (m == null) {
            return e.getClass().getSimpleName();
        }
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}
