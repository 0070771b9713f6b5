package io.nbench.transport.nio;

import io.nbench.protocol.RequestTemplate;
import io.nbench.transport.ClientConnection;
import io.nbench.transport.ConnectionHandler;
import io.nbench.transport.ErrorKind;
import io.nbench.transport.support.LongRing;
import io.nbench.transport.support.ResponseDecoder;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * One nio client connection, registered with one selector loop for life.
 *
 * <p><b>Reading</b> belongs to the loop thread alone: it reads into the loop's {@link SharedReadBuffer}
 * (after the bytes of an incomplete response kept from the previous read in {@code carry}), decodes
 * every complete response of that read and calls the handler with a view over that buffer (no copy, no
 * allocation); the view is valid during the callback only. What is left of an incomplete response is
 * copied into {@code carry}: at most one response per read.
 *
 * <p><b>Sending</b> may come from any thread: the engine's sender threads (several may share one
 * connection), the coordinator filling the window, and the loop thread itself when the io driver sends
 * the next message from inside {@code onResponse}. They share one output buffer and the channel's byte
 * stream (two partial writes must never interleave), so other threads append and write under
 * {@code lock}. The alternative without a lock, a queue that only the loop thread drains, costs a
 * cross-core wake-up per message from a sender thread, which on this kind of machine costs most of a
 * loopback round trip; an uncontended {@link ReentrantLock} is one CAS and one volatile store, and never
 * allocates. It is contended only when several threads send on one connection at the same instant, or
 * while the loop thread flushes a backlog.
 *
 * <p>The loop thread's sends during a read batch do not take the lock: they only add their id to
 * {@code deferred}, which the loop thread alone touches, and when the batch ends the loop thread takes the
 * lock once to encode them all and write them with one write (as Netty's flush consolidation does).
 * Measured: the lock was 1.1 % of the loop thread when each of a batch's sends took it. When nothing of
 * the connection waits in {@code out}, that batch is encoded in the loop's {@link SharedWriteBuffer} and
 * written from there; only what the socket does not take is copied into {@code out}. A send from
 * another thread during the batch may therefore reach the socket before the loop's earlier ones: sends
 * from different threads were never ordered, and each request is still written whole and in one piece.
 *
 * <p>Whoever leaves bytes in {@code out} is responsible for them being written: the loop thread at the
 * end of its batch; any other thread writes at once, and a partial write arms OP_WRITE so the loop
 * finishes it. A send that finds bytes already waiting only appends: they will go together. Requests
 * that do not fit wait as ids in {@code backlog} (or, during a batch, in {@code deferred}) and are
 * encoded as room frees up, so the buffer never grows beyond {@code max(nio.buffer, one request)}.
 *
 * <p>"Written" ({@code --measure send}) means the request's last byte was accepted by
 * {@link SocketChannel#write}: ends of requests are tracked as byte offsets and reported, outside the
 * lock, by the thread whose write passed them; the requests a write completed are taken under the
 * lock acquisition that wrote them (the loop thread's into {@code loopWritten}), not one each.
 */
final class NioClientConnection implements ClientConnection, SelectorLoop.Selectable {

    private final SelectorLoop loop;
    private final SharedReadBuffer readBuffer;
    private final SharedWriteBuffer writeBuffer;
    private final RequestTemplate template;
    private final SocketChannel channel;
    /** What is read from and written to: the channel, or TLS over it (written under {@link #lock}). */
    private final Wire link;
    private final ConnectionHandler handler;
    private final ResponseDecoder decoder;
    private final boolean notifyWritten;
    private final byte[] request;
    private final int[] idOffsets;
    private final int wire;
    private final int responseSize;

    private final NioConfig config;

    /**
     * The bytes of an incomplete response at the end of the last read, in fill mode; null until needed. Loop
     * thread only.
     */
    private ByteBuffer carry;
    private boolean inBatch;
    /** Ids the loop thread sent during the current read batch, encoded and written when it ends. */
    private final LongRing deferred = new LongRing();
    /** Ids whose writes the loop thread's last flush completed, reported after it lets go of the lock. */
    private final LongRing loopWritten = new LongRing();
    private SelectionKey key;

    private final ReentrantLock lock;
    /** Guarded by lock: how often it was taken, which tests compare with the messages sent. */
    private long lockAcquisitions;
    /** Guarded by lock: requests encoded in the loop's shared write buffer, for tests. */
    private long sharedEncodes;
    /** Guarded by lock: requests encoded but not yet accepted by the kernel (fill mode). */
    private final ByteBuffer out;
    private final LongRing backlog = new LongRing();
    private final LongRing writtenIds = new LongRing();
    private final LongRing writtenEnds = new LongRing();
    private long appended;
    private long written;
    /**
     * Guarded by lock: {@code out}'s first bytes, a whole number of requests, hold copies of the request
     * from earlier encodes. Every request is the template with its id stamped in, so one encoded there
     * needs only its id written, not its payload copied (as the C reference client writes from a
     * prepared buffer): at 1 KiB the copy was a few percent of the loop thread's time. Requests are
     * encoded at multiples of {@code wire} from 0 while this is non-zero (see {@link #flushLocked}).
     */
    private int prepared;
    private boolean writeInterest;

    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile boolean closing;

    NioClientConnection(SelectorLoop loop, SharedReadBuffer readBuffer, SharedWriteBuffer writeBuffer,
                        SocketChannel channel, Wire link, ReentrantLock lock, NioConfig config, RequestTemplate template,
                        ConnectionHandler handler, int maxFrame, boolean notifyWritten) {
        this.link = link;
        this.lock = lock;
        this.loop = loop;
        this.readBuffer = readBuffer;
        this.writeBuffer = writeBuffer;
        this.template = template;
        this.config = config;
        this.channel = channel;
        this.handler = handler;
        this.decoder = new ResponseDecoder(template, maxFrame, handler);
        this.notifyWritten = notifyWritten;
        this.request = template.bytes();
        this.idOffsets = template.idOffsets();
        this.wire = request.length;
        this.responseSize = ResponseDecoder.initialCapacity(template);
        this.out = config.allocate(Math.max(config.bufferSize, wire));
    }

    /** On the loop thread. */
    void register() throws IOException {
        key = channel.register(loop.selector(), SelectionKey.OP_READ, this);
    }

    // ---- sending (any thread) ---------------------------------------------------------------------

    @Override
    public void send(long id) {
        if (closing) {
            throw new IllegalStateException("connection is closed");
        }
        if (loop.inLoop() && inBatch) {
            deferred.add(id); // written under one lock acquisition when the batch ends (flushFromLoop)
            return;
        }
        String failure = null;
        boolean wasWritten = false;
        long writtenId = 0;
        boolean moreWritten = false;
        lockCounted();
        try {
            if (out.position() > 0 || !backlog.isEmpty()) {
                enqueueLocked(id);
            } else {
                encodeLocked(id);
                flushLocked();
            }
            // The request this write completed is taken under the same lock acquisition: with
            // --measure send the next send comes from its written event, and a second acquisition per
            // message (plus a third to find nothing more) was most of the connection's locking.
            if (notifyWritten && !writtenIds.isEmpty() && writtenEnds.peek() <= written) {
                writtenEnds.poll();
                writtenId = writtenIds.poll();
                wasWritten = true;
                moreWritten = !writtenIds.isEmpty() && writtenEnds.peek() <= written;
            }
        } catch (IOException e) {
            failure = oneLine(e);
        } catch (CancelledKeyException e) {
            failure = "connection closed while writing";
        } finally {
            lock.unlock();
        }
        if (failure != null) {
            failWrite(failure);
            return;
        }
        if (wasWritten) {
            handler.onWritten(writtenId);
            if (moreWritten) {
                reportWritten();
            }
        }
    }

    private void enqueueLocked(long id) {
        if (backlog.isEmpty() && out.remaining() >= wire) {
            encodeLocked(id);
        } else {
            backlog.add(id);
        }
    }

    private void encodeLocked(long id) {
        int p = out.position();
        if (p + wire <= prepared) {
            out.position(p + wire);
        } else {
            out.put(request);
            if (p == prepared) {
                prepared = p + wire;
            }
        }
        for (int at : idOffsets) {
            out.putLong(p + at, id);
        }
        if (notifyWritten) {
            appended += wire;
            writtenIds.add(id);
            writtenEnds.add(appended);
        }
    }

    /** Writes what {@code out} holds, refilling it from the backlog, until done or the socket is full. */
    private void flushLocked() throws IOException {
        while (true) {
            out.flip();
            int n = link.write(out);
            boolean all = !out.hasRemaining() && link.flushed();
            if (!all) {
                prepared = 0; // compact moves the unwritten bytes to the start: no longer whole copies
            }
            out.compact();
            written += n;
            while (!backlog.isEmpty() && out.remaining() >= wire) {
                encodeLocked(backlog.poll());
            }
            if (out.position() == 0 && all) {
                setWriteInterest(false);
                return;
            }
            if (!all) {
                setWriteInterest(true);
                return;
            }
        }
    }

    private void setWriteInterest(boolean on) {
        if (on == writeInterest) {
            return;
        }
        writeInterest = on;
        key.interestOps(on ? SelectionKey.OP_READ | SelectionKey.OP_WRITE : SelectionKey.OP_READ);
        if (on && !loop.inLoop()) {
            // An interest change made by another thread takes effect at the loop's next select.
            loop.wakeup();
        }
    }

    /** Reports, outside the lock, every request whose last byte the kernel has accepted. */
    private void reportWritten() {
        while (true) {
            long id;
            lockCounted();
            try {
                if (writtenIds.isEmpty() || writtenEnds.peek() > written) {
                    return;
                }
                writtenEnds.poll();
                id = writtenIds.poll();
            } finally {
                lock.unlock();
            }
            handler.onWritten(id);
        }
    }

    private void lockCounted() {
        lock.lock();
        lockAcquisitions++;
    }

    /** How often the connection's lock was taken so far (for tests: one per read batch, not per send). */
    long lockAcquisitions() {
        return underLock(() -> lockAcquisitions);
    }

    /** How many requests were encoded in the loop's shared write buffer so far (for tests). */
    long sharedEncodes() {
        return underLock(() -> sharedEncodes);
    }

    /** A counter guarded by the lock, read under it (tests; off the hot path). */
    private long underLock(LongSupplier counter) {
        lock.lock();
        try {
            return counter.getAsLong();
        } finally {
            lock.unlock();
        }
    }

    // ---- the loop thread --------------------------------------------------------------------------

    @Override
    public void ready(SelectionKey k) {
        int ops;
        try {
            ops = k.readyOps();
        } catch (CancelledKeyException e) {
            return;
        }
        if ((ops & SelectionKey.OP_READ) != 0) {
            onReadable();
        }
        if ((ops & SelectionKey.OP_WRITE) != 0 && !closed.get()) {
            flushFromLoop();
        }
    }

    /**
     * Reads and decodes; again while the wire holds bytes it read from the socket (TLS records beyond what the
     * read buffer took), which no OP_READ would report.
     */
    private void onReadable() {
        while (readOnce() && link.buffered() && !closed.get()) {
            // the next batch
        }
    }

    /** One read and its batch of responses: whether it read anything and the connection is still open. */
    private boolean readOnce() {
        ByteBuffer in = readBuffer.take(decoder.needed());
        int kept = carry == null ? 0 : carry.position();
        in.position(kept); // the carried bytes go in front once the read brought something
        int n;
        try {
            n = link.read(in);
        } catch (IOException e) {
            closeNow(ErrorKind.READ, "read failed: " + oneLine(e));
            return false;
        }
        if (n <= 0) {
            if (n < 0) {
                closeNow(null, null);
            }
            return false;
        }
        if (kept > 0) {
            in.put(0, carry, 0, kept);
            carry.clear();
        }
        in.flip();
        boolean ok;
        inBatch = true;
        handler.onReadStart(); // the responses of this read share one clock reading
        try {
            ok = decoder.decode(in);
        } catch (RuntimeException e) {
            deferred.clear();
            closeNow(ErrorKind.READ, "response handler failed: " + e);
            return false;
        } finally {
            inBatch = false;
            handler.onReadEnd();
        }
        if (!ok) {
            deferred.clear();
            closeNow(null, null); // the decoder reported the bad frame with its bytes
            return false;
        }
        if (closed.get()) {
            deferred.clear();
            return false;
        }
        if (in.hasRemaining()) {
            keep(in);
        }
        if (!deferred.isEmpty()) {
            flushFromLoop();
        }
        return true;
    }

    /** Copies the incomplete response at the end of {@code in} into {@code carry}, growing it if needed. */
    private void keep(ByteBuffer in) {
        if (carry == null || carry.capacity() < decoder.needed()) {
            carry = config.allocate(Math.max(decoder.needed(), responseSize)); // once per connection in practice
        }
        carry.put(in);
    }

    /**
     * The loop thread's flush, under one lock acquisition: at the end of a read batch it writes the sends
     * deferred during the batch; on OP_WRITE (nothing deferred) it finishes a partial write.
     */
    private void flushFromLoop() {
        String failure = null;
        lockCounted();
        try {
            // Nothing of this connection's waits in out: the batch can go from the loop's buffer.
            boolean socketFull = out.position() == 0 && backlog.isEmpty() && !writeShared();
            while (!deferred.isEmpty()) {
                enqueueLocked(deferred.poll());
            }
            if (socketFull) {
                // writeShared armed OP_WRITE: writing again now would only find the socket full
            } else if (out.position() > 0 || !backlog.isEmpty() || !link.flushed()) {
                flushLocked();
            } else {
                setWriteInterest(false);
            }
            if (notifyWritten) {
                takeWrittenLocked();
            }
        } catch (IOException e) {
            failure = oneLine(e);
        } catch (CancelledKeyException e) {
            failure = "connection closed while writing";
        } finally {
            lock.unlock();
        }
        if (failure != null) {
            deferred.clear();
            closeAfterWriteFailure(failure);
        } else {
            reportLoopWritten();
        }
    }

    /**
     * Under the lock, with {@code out} empty: writes the deferred sends from the loop's
     * {@link SharedWriteBuffer}, a buffer-full at a time, until they are all written or the socket takes
     * less than it was given; what it did not take moves to {@code out} (OP_WRITE finishes it) and the
     * sends not yet encoded stay in {@code deferred} for the caller to queue behind it. Returns whether
     * the socket took everything.
     */
    private boolean writeShared() throws IOException {
        while (!deferred.isEmpty()) {
            ByteBuffer w = writeBuffer.take(template, out.capacity()); // what the socket leaves fits in out
            while (!deferred.isEmpty() && w.remaining() >= wire) {
                long id = deferred.poll();
                writeBuffer.append(template, id);
                sharedEncodes++;
                if (notifyWritten) {
                    appended += wire;
                    writtenIds.add(id);
                    writtenEnds.add(appended);
                }
            }
            w.flip();
            written += link.write(w);
            if (w.hasRemaining() || !link.flushed()) {
                prepared = 0; // out's start no longer holds whole copies of the request
                out.put(w);
                setWriteInterest(true);
                return false;
            }
        }
        return true;
    }

    /** Moves the ids of every request now fully written to {@code loopWritten}, under the flush's lock. */
    private void takeWrittenLocked() {
        while (!writtenIds.isEmpty() && writtenEnds.peek() <= written) {
            writtenEnds.poll();
            loopWritten.add(writtenIds.poll());
        }
    }

    /** Reports, outside the lock, what {@link #takeWrittenLocked} found: no lock per written request. */
    private void reportLoopWritten() {
        while (!loopWritten.isEmpty()) {
            handler.onWritten(loopWritten.poll());
        }
    }

    @Override
    public void shutdown() {
        closeNow(null, null);
    }

    // ---- closing ----------------------------------------------------------------------------------

    @Override
    public void close() {
        fail(null, null);
    }

    /**
     * Closes from any thread. The closing events are always reported by the loop thread (unless it has
     * stopped), so that no response event can follow {@code onClosed}.
     */
    private void fail(ErrorKind kind, String message) {
        closing = true;
        if (loop.inLoop() || !loop.execute(() -> closeNow(kind, message))) {
            closeNow(kind, message);
        }
    }

    /**
     * A write failed (a broken pipe, a reset): from any thread, the loop reads what the peer sent first, then
     * closes for the failure.
     */
    private void failWrite(String failure) {
        closing = true;
        if (loop.inLoop() || !loop.execute(() -> closeAfterWriteFailure(failure))) {
            closeAfterWriteFailure(failure);
        }
    }

    /**
     * Loop thread: reads what the socket still holds, then closes for the write failure. A peer that closes after
     * answering (nginx after its keepalive_requests, its last response saying Connection: close) draws a reset from
     * a request pipelined behind that response; the write that meets the reset can come before the read of the
     * response, which is in the socket's receive queue all the same (the kernel hands out queued data before the
     * reset). Closing at once lost it, and the requests in flight counted as read errors (nginx with --window 4).
     * Read first, the response says the close was announced and the engine replaces the connection cleanly.
     */
    private void closeAfterWriteFailure(String failure) {
        while (!closed.get() && readOnce()) {
            // what the peer sent before the failure
        }
        closeNow(ErrorKind.WRITE, "write failed: " + failure);
    }

    /** Closes and reports {@code onError} (if {@code kind} is not null) then {@code onClosed}, once. */
    private void closeNow(ErrorKind kind, String message) {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        closing = true;
        decoder.stop();
        if (lock.tryLock()) { // close_notify unless a sender is writing right now
            try {
                link.closing();
            } finally {
                lock.unlock();
            }
        }
        try {
            channel.close();
        } catch (IOException e) {
            // closing anyway
        }
        if (kind != null) {
            handler.onError(kind, message);
        }
        handler.onClosed();
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
