package io.nbench.load;

import io.nbench.protocol.Framed;
import io.nbench.protocol.Protocol;
import io.nbench.protocol.RequestTemplate;
import io.nbench.transport.ClientConnection;
import io.nbench.transport.ConnectionHandler;
import io.nbench.transport.ErrorKind;
import io.nbench.transport.PayloadView;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The engine's side of one connection: its window (the semaphore's permits), the table of messages in
 * flight, and the handling of every event its transport reports.
 *
 * <p>In-flight table: a power-of-two array of slots, at least twice the window, each holding the id of
 * the message occupying it ({@link #FREE} when empty) and its start time. The slot index is the low bits
 * of the id, so a response finds its slot without searching; the rest of the id is a per-connection
 * sequence number, so a late response (its slot since reused) never matches and is never credited to
 * the wrong message. A slot is claimed, stamped and published with release semantics; it is completed by
 * whoever wins a compare-and-set from the id back to FREE (the response, the write event, or the
 * timeout watchdog), so each message is counted exactly once without a lock.
 */
final class LoadConnection implements ConnectionHandler {

    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final long FREE = 0;
    private static final long CLAIMED = -2;
    private static final int FULL_CHECK_MASK = 63;

    final int index;
    final int window;
    private final BenchmarkRun run;
    final RequestTemplate template;
    private final ResponseVerifier verifier;
    private final boolean measureSend;
    private final boolean echo;

    final AtomicInteger permits;
    private final long[] slotIds;
    private final long[] slotStart;
    private final int slotBits;
    private final int slotMask;
    private final AtomicLong sequence = new AtomicLong(1);

    /** Messages the io driver may still send in this iteration. */
    final AtomicLong remaining = new AtomicLong();

    volatile ClientConnection transport;
    volatile boolean dead;
    /** Sender threads that may wait on this connection's permits; set before the first iteration. */
    SenderThread[] waiters = new SenderThread[0];
    /** The coordinator, while it waits for this connection to drain. */
    volatile Thread drainWaiter;
    /** Last thread context used on this connection: a racy cache, checked by owner. */
    private ThreadContext cached;

    LoadConnection(int index, BenchmarkRun run, RequestTemplate template, int window, boolean measureSend) {
        this.index = index;
        this.run = run;
        this.template = template;
        this.window = window;
        this.measureSend = measureSend;
        this.echo = template.protocol() == Protocol.ECHO;
        this.verifier = new ResponseVerifier(template);
        this.permits = new AtomicInteger(window);
        int capacity = Integer.highestOneBit(Math.max(2, window * 2 - 1)) << 1;
        this.slotBits = Integer.numberOfTrailingZeros(capacity);
        this.slotMask = capacity - 1;
        this.slotIds = new long[capacity];
        this.slotStart = new long[capacity];
    }

    // ---- permits ----------------------------------------------------------------------------------

    boolean tryAcquire() {
        int p = permits.get();
        while (p > 0) {
            if (permits.compareAndSet(p, p - 1)) {
                return true;
            }
            p = permits.get();
        }
        return false;
    }

    /**
     * All permits are back: nothing in flight. A closed connection gets here too, once {@link #onClosed}
     * has failed its messages (and, if it was the last one, aborted the run first).
     */
    boolean drained() {
        return permits.get() >= window;
    }

    private void releasePermit() {
        permits.incrementAndGet();
        wakeWaiters();
    }

    private void wakeWaiters() {
        for (SenderThread w : waiters) {
            if (w.parked) {
                LockSupport.unpark(w);
            }
        }
        Thread d = drainWaiter;
        if (d != null) {
            LockSupport.unpark(d);
        }
    }

    /**
     * A message that held a permit is finished. With the io driver, the permit goes straight to this
     * connection's next message, sent from the current (usually I/O) thread.
     */
    private void complete(ThreadContext ctx) {
        if (run.ioDriver && !dead && remaining.decrementAndGet() >= 0) {
            sendFromIo(ctx);
            return;
        }
        releasePermit();
    }

    private void sendFromIo(ThreadContext ctx) {
        if (ctx.sending) {
            // A transport reported a completion inline, inside our own send: send after it returns.
            ctx.defer(this);
            return;
        }
        ctx.sending = true;
        try {
            sendOne();
            LoadConnection next;
            while ((next = ctx.pollDeferred()) != null) {
                next.sendOne();
            }
        } finally {
            ctx.sending = false;
        }
    }

    // ---- sending ----------------------------------------------------------------------------------

    /** Sends one message; the caller holds a permit for it. */
    void sendOne() {
        long seq = sequence.getAndIncrement();
        int slot = claimSlot((int) seq);
        long id = (seq << slotBits) | slot;
        slotStart[slot] = System.nanoTime();
        SLOTS.setRelease(slotIds, slot, id);
        ClientConnection c = transport;
        if (dead || c == null) {
            fail(slot, id, ErrorKind.WRITE);
            return;
        }
        try {
            c.send(id);
        } catch (RuntimeException e) {
            run.noteError(ErrorKind.WRITE, "send failed on connection " + index + ": " + e);
            fail(slot, id, ErrorKind.WRITE);
        }
    }

    private int claimSlot(int from) {
        for (int k = 0; k <= slotMask; k++) {
            int i = (from + k) & slotMask;
            if (SLOTS.compareAndSet(slotIds, i, FREE, CLAIMED)) {
                return i;
            }
        }
        throw new IllegalStateException("more messages in flight than the window allows on connection " + index);
    }

    private void fail(int slot, long id, ErrorKind kind) {
        if (SLOTS.compareAndSet(slotIds, slot, id, FREE)) {
            run.errors.add(kind);
            releasePermit();
        }
    }

    /** Claims completion of {@code id}: its start time, or -1 if it is not in flight (late or unknown). */
    private long finish(long id) {
        if (id <= 0) {
            return -1;
        }
        int slot = (int) (id & slotMask);
        if ((long) SLOTS.getAcquire(slotIds, slot) != id) {
            return -1;
        }
        long start = slotStart[slot];
        return SLOTS.compareAndSet(slotIds, slot, id, FREE) ? start : -1;
    }

    /** Echo responses carry no id: take the stamp in the payload, or the oldest message in flight. */
    private long echoId(PayloadView payload) {
        long stamped = verifier.stampedId(payload);
        if (stamped != -1) {
            return stamped;
        }
        long oldest = Long.MAX_VALUE;
        for (int i = 0; i <= slotMask; i++) {
            long v = (long) SLOTS.getAcquire(slotIds, i);
            if (v > 0 && v < oldest) {
                oldest = v;
            }
        }
        return oldest == Long.MAX_VALUE ? -1 : oldest;
    }

    // ---- transport events -------------------------------------------------------------------------

    @Override
    public void onResponse(long id, int status, PayloadView payload) {
        long now = System.nanoTime();
        ThreadContext ctx = context();
        if (echo) {
            id = echoId(payload);
        }
        if (measureSend) {
            // The message was completed by its write; the response is only checked.
            if (status == Framed.STATUS_REJECTED) {
                run.errors.add(ErrorKind.REJECTED);
            } else if (!verified(id, payload)) {
                run.errors.add(ErrorKind.INTEGRITY);
            }
            return;
        }
        long start = finish(id);
        if (start < 0) {
            run.lateResponses.increment();
            return;
        }
        if (status == Framed.STATUS_REJECTED) {
            run.errors.add(ErrorKind.REJECTED);
        } else if (!verified(id, payload)) {
            run.errors.add(ErrorKind.INTEGRITY);
            run.noteError(ErrorKind.INTEGRITY, "response payload differs from the request on connection " + index);
        } else {
            ctx.record(now - start);
        }
        complete(ctx);
    }

    private boolean verified(long id, PayloadView payload) {
        switch (run.verify) {
            case NONE:
                return true;
            case SAMPLE:
                return verifier.checkHeader(id, payload)
                        && (((id >>> slotBits) & FULL_CHECK_MASK) != 0 || verifier.checkBody(payload));
            default:
                return verifier.checkHeader(id, payload) && verifier.checkBody(payload);
        }
    }

    @Override
    public void onWritten(long id) {
        if (!measureSend) {
            return;
        }
        long now = System.nanoTime();
        ThreadContext ctx = context();
        long start = finish(id);
        if (start < 0) {
            return;
        }
        ctx.record(now - start);
        complete(ctx);
    }

    @Override
    public void onError(ErrorKind kind, String message) {
        if (run.closing) {
            return;
        }
        run.errors.add(kind);
        run.noteError(kind, message);
    }

    @Override
    public void onClosed() {
        dead = true;
        if (run.closing) {
            failAll(null);
            return;
        }
        run.connectionLost(this); // before the permits come back, so the coordinator sees the abort
        failAll(ErrorKind.READ);
    }

    /** Fails every message in flight (counting each as {@code kind} unless null) and returns their permits. */
    private void failAll(ErrorKind kind) {
        for (int i = 0; i <= slotMask; i++) {
            long v = (long) SLOTS.getAcquire(slotIds, i);
            if (v > 0 && SLOTS.compareAndSet(slotIds, i, v, FREE)) {
                if (kind != null) {
                    run.errors.add(kind);
                }
                releasePermit();
            }
        }
        wakeWaiters(); // so senders and the coordinator notice the connection is dead
    }

    /** Watchdog: fails messages older than the timeout. Returns how many timed out. */
    int expire(long now, long timeoutNanos, ThreadContext ctx) {
        int expired = 0;
        for (int i = 0; i <= slotMask; i++) {
            long v = (long) SLOTS.getAcquire(slotIds, i);
            if (v > 0 && now - slotStart[i] > timeoutNanos && SLOTS.compareAndSet(slotIds, i, v, FREE)) {
                expired++;
                run.errors.add(ErrorKind.TIMEOUT);
                complete(ctx);
            }
        }
        return expired;
    }

    ThreadContext context() {
        ThreadContext c = cached;
        Thread me = Thread.currentThread();
        if (c != null && c.owner == me) {
            return c;
        }
        c = run.contextFor(me);
        cached = c;
        return c;
    }
}
