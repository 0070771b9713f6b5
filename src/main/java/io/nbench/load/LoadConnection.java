package io.nbench.load;

import io.nbench.protocol.ClientCodec;
import io.nbench.protocol.Framed;
import io.nbench.protocol.PeerBytes;
import io.nbench.protocol.RequestTemplate;
import io.nbench.transport.ClientConnection;
import io.nbench.transport.ClientTransport;
import io.nbench.transport.ConnectionHandler;
import io.nbench.transport.ErrorKind;
import io.nbench.transport.PayloadView;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The engine's side of one connection: its window (the semaphore's permits), the table of messages in
 * flight, and the handling of every event its transport reports.
 *
 * <p>The messages in flight are an {@link InFlightSlots} table, whose javadoc states who claims, publishes
 * and completes a slot on which thread: each message is counted exactly once without a lock, and a late
 * response is never credited to the message that reused its slot.
 *
 * <p>Echo messages under eight bytes carry no id and are matched first-in first-out: the oldest message
 * in flight takes the next reply. A reply that never comes would shift every later one onto the wrong
 * message, so a timeout there reopens the connection ({@link #reopen}; echo replies carry no id). Each such message
 * is tagged with the generation of the connection it went out on, and a reply is matched only among the
 * messages of its own connection's generation.
 */
final class LoadConnection implements ConnectionHandler {

    private static final VarHandle LAST_ANSWER;

    static {
        try {
            LAST_ANSWER = MethodHandles.lookup().findVarHandle(LoadConnection.class, "lastAnswer", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
    private static final int FULL_CHECK_MASK = 63;

    final int index;
    final int window;
    /** Its run, seen only through what a connection needs of it. */
    private final ConnectionHost run;
    final RequestTemplate template;
    private final ResponseVerifier verifier;
    private final boolean measureSend;
    private final boolean echo;
    /** Echo without an id in the payload: replies are matched first-in first-out. */
    private final boolean fifo;
    /**
     * How responses are checked, decided once: a switch on the run's enum was a table load and an
     * indirect branch per message.
     */
    private final boolean verifyNone;
    private final boolean verifyFull;
    /**
     * Echo with an id stamp: a response is matched to the message whose id it carries, so comparing the
     * stamp with that id cannot fail and its header check is the length alone (one payload read per
     * response instead of two; a response too short to carry the stamp fails on its length).
     */
    private final boolean idIsStamp;
    /**
     * Responses are the server's own (HTTP): matched first-in first-out, never verified, and counted by
     * the codec's status (non-success statuses are errors by code).
     */
    private final boolean serverResponses;
    private final ClientCodec codec;

    final AtomicInteger permits;
    /** The messages in flight. The fields below alias its columns: one load fewer for each message. */
    private final InFlightSlots slots;
    private final long[] slotStart;
    /** Batch mode only: the sender each message belongs to, told when its message is done. */
    private final Sender[] slotOwner;
    /** Open loop: each message's intended send time. */
    private final long[] slotIntended;
    /** FIFO echo only: the connection generation each message went out on. */
    private final int[] slotGen;
    /** First-in first-out only: the reads begun on this connection when each message went out. */
    private final long[] slotReadsBefore;
    /** Which responses this connection may still get besides the answers to its messages in flight. */
    private final AnswerLedger ledger;
    /**
     * HTTP, responses timed: what the server left unanswered when it closed a connection cleanly, re-sent on the
     * replacement (null otherwise: with --measure send a request is done once written).
     */
    private final ClosedConnectionResends resends;
    /**
     * When a response (or, measuring sends, a written event) last arrived, the run clock; 0 = never.
     * Written by the I/O thread with opaque stores (no fence on the hot path), read by the watchdog.
     */
    @SuppressWarnings("unused") // through LAST_ANSWER
    private long lastAnswer;
    private final boolean openLoop;
    private final int slotBits;
    private final int slotMask;
    private final AtomicLong sequence = new AtomicLong(1);

    /** Messages the io driver may still send in this iteration. */
    final AtomicLong remaining = new AtomicLong();

    volatile ClientConnection transport;
    volatile boolean dead;
    /** Sender threads that may wait on this connection's permits; set before the first iteration. */
    Sender[] waiters = new Sender[0];
    /** The coordinator, while it waits for this connection to drain. */
    volatile Thread drainWaiter;
    /** Last thread context used on this connection: a racy cache, checked by owner. */
    private ThreadContext cached;

    LoadConnection(int index, ConnectionHost run, RequestTemplate template, int window, boolean measureSend,
                   boolean openLoop, boolean batch) {
        this.openLoop = openLoop;
        this.index = index;
        this.run = run;
        this.template = template;
        this.window = window;
        this.measureSend = measureSend;
        this.echo = !template.protocol().responsesCarryIds();
        this.serverResponses = !template.protocol().responsesVerifiable();
        this.codec = template.codec();
        this.fifo = echo && (serverResponses || !template.payloadCarriesId()) && !measureSend;
        this.idIsStamp = echo && !serverResponses && template.payloadCarriesId();
        this.verifyNone = run.verify == Verify.NONE || serverResponses;
        this.verifyFull = run.verify == Verify.FULL;
        this.verifier = new ResponseVerifier(template);
        this.permits = new AtomicInteger(window);
        this.slots = new InFlightSlots(window, openLoop, batch, fifo);
        this.slotBits = slots.bits;
        this.slotMask = slots.mask;
        this.slotStart = slots.start;
        this.slotIntended = slots.intended;
        this.slotOwner = slots.owner;
        this.slotGen = slots.generation;
        this.slotReadsBefore = slots.readsBefore;
        this.ledger = new AnswerLedger(fifo ? 0 : slots.capacity());
        this.resends = serverResponses && slotGen != null ? new ClosedConnectionResends(slots.capacity()) : null;
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
        wakeOne();
    }

    /** Racy rotation start for {@link #wakeOne}: fairness only, not correctness. */
    private int nextWaiter;

    /**
     * Wakes one parked sender (not all of them: with many threads over one connection, waking all for
     * each permit costs every one of them a wake-up for nothing). A sender that takes a permit and still
     * sees one free wakes the next ({@link #passOnWakeUp}), so no wake-up is lost; parks are bounded too.
     */
    private void wakeOne() {
        Sender[] ws = waiters;
        int n = ws.length;
        int start = nextWaiter;
        for (int k = 0; k < n; k++) {
            int i = start + k;
            if (i >= n) {
                i -= n;
            }
            Sender w = ws[i];
            if (w.parked) {
                nextWaiter = i + 1 == n ? 0 : i + 1;
                LockSupport.unpark(w);
                break;
            }
        }
        Thread d = drainWaiter;
        if (d != null) {
            LockSupport.unpark(d);
        }
    }

    /**
     * Nothing in flight and nothing left to send: {@link #drained()}, unless the connection waits to be
     * replaced after the server closed it (io driver) with messages of its share still to send.
     */
    boolean finished() {
        return drained() && !(awaitingReplacement && !dead && remaining.get() > 0);
    }

    /** Called by a sender that just took a permit: if more are free, another parked sender may use one. */
    void passOnWakeUp() {
        if (waiters.length > 1 && permits.get() > 0) {
            wakeOne();
        }
    }

    private void wakeWaiters() {
        for (Sender w : waiters) {
            if (w.parked) {
                LockSupport.unpark(w);
            }
        }
        Thread d = drainWaiter;
        if (d != null) {
            LockSupport.unpark(d);
        }
    }

    /** A message that held a permit is finished; no clock reading to reuse for the next send. */
    private void complete(ThreadContext ctx) {
        complete(ctx, NO_TIME);
    }

    /**
     * A message that held a permit is finished at {@code now} (or {@link #NO_TIME}). With the io driver,
     * the permit goes straight to this connection's next message, sent from the current (usually I/O)
     * thread, and stamped with {@code now}: the completion and the hand-off of the next message are the
     * same instant give or take the recording of the first, and one clock reading per message instead
     * of two is a measurable share of the I/O thread's time at millions of messages per second.
     */
    private void complete(ThreadContext ctx, long now) {
        if (run.ioDriver && !dead && !peerCloses && !run.stopSending && remaining.decrementAndGet() >= 0) {
            sendFromIo(ctx, now);
            return;
        }
        releasePermit();
    }

    private void sendFromIo(ThreadContext ctx, long now) {
        if (ctx.sending) {
            // A transport reported a completion inline, inside our own send: send after it returns.
            ctx.defer(this);
            return;
        }
        ctx.sending = true;
        try {
            sendOne(null, now);
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
        sendOne((Sender) null);
    }

    /** Sends one message for {@code owner} (batch mode: the owner waits for its batch to complete). */
    void sendOne(Sender owner) {
        sendOne(owner, NO_TIME);
    }

    /** Marks "no clock reading at hand": the send reads the clock itself. */
    static final long NO_TIME = Long.MIN_VALUE;

    /** Sends one message stamped {@code start} (or now, if {@link #NO_TIME}). */
    private void sendOne(Sender owner, long start) {
        long seq = sequence.getAndIncrement();
        int slot = claimSlot((int) seq);
        long id = (seq << slotBits) | slot;
        if (slotOwner != null) {
            slotOwner[slot] = owner;
        }
        slotStart[slot] = start != NO_TIME ? start : run.clock.nanoTime();
        ClientConnection c = slotGen != null ? tag(slot) : transport;
        slots.publish(slot, id);
        transmit(c, slot, id);
    }

    /** Open loop: sends one message meant to go at {@code intended}; records how late it goes. */
    void sendOne(long intended) {
        long seq = sequence.getAndIncrement();
        int slot = claimSlot((int) seq);
        long id = (seq << slotBits) | slot;
        long now = run.clock.nanoTime();
        slotStart[slot] = now;
        slotIntended[slot] = intended;
        ClientConnection c = slotGen != null ? tag(slot) : transport;
        slots.publish(slot, id);
        context().recordLag(now - intended);
        transmit(c, slot, id);
    }

    /**
     * FIFO echo: reads the connection and its generation as one pair (the generation is odd while
     * {@link #reopen} swaps the connection) and tags the slot with it, so the message is matched only
     * against replies of the connection it really goes out on; and with the reads begun so far, so that
     * no response read before it went out completes it ({@link AnswerLedger}).
     */
    private ClientConnection tag(int slot) {
        for (;;) {
            int g = generation;
            ClientConnection c = transport;
            if ((g & 1) == 0 && generation == g) {
                slotGen[slot] = g;
                slotReadsBefore[slot] = ledger.readsBegun();
                return c;
            }
            Thread.onSpinWait();
        }
    }

    private void transmit(ClientConnection c, int slot, long id) {
        if (dead || c == null) {
            fail(slot, id, ErrorKind.WRITE);
            return;
        }
        try {
            c.send(id);
        } catch (RuntimeException e) {
            if (resends != null) {
                // HTTP: the server closed this connection while the request went out (the transport may say so
                // before its close event comes, and the connection may even be replaced by now). The request stays
                // in flight: the close decides, as for those written just before it (clean: it goes out again on
                // the replacement; after an error: a read error); on a connection that stayed open, its timeout.
                return;
            }
            run.noteError(ErrorKind.WRITE, "send failed on connection " + index + ": " + e);
            fail(slot, id, ErrorKind.WRITE);
        }
    }

    private int claimSlot(int from) {
        int slot = slots.claim(from);
        if (slot >= 0) {
            return slot;
        }
        throw new IllegalStateException("more messages in flight than the window allows on connection " + index);
    }

    /**
     * Frees the slot if it still holds {@code id}; the one place a message ends, so its batch owner (if
     * any) hears of it exactly once.
     */
    private boolean free(int slot, long id) {
        Sender owner = slotOwner != null ? slotOwner[slot] : null;
        if (!slots.release(slot, id)) {
            return false;
        }
        if (owner != null) {
            owner.messageDone();
        }
        return true;
    }

    private void fail(int slot, long id, ErrorKind kind) {
        if (free(slot, id)) {
            run.errors.add(kind);
            releasePermit();
        }
    }

    /**
     * Claims completion of {@code id} at time {@code now} and records its latency when {@code record};
     * false if it is not in flight (late or unknown). The slot's times are read before it is freed: once
     * free, a sender may reuse it.
     */
    private boolean finish(long id, long now, boolean record, ThreadContext ctx) {
        return finish(id, now, record, -1, ctx);
    }

    /**
     * {@link #finish(long, long, boolean, ThreadContext)} of a server's own response (HTTP) of status {@code code}
     * (-1: none): its latency is also kept by status class.
     */
    private boolean finish(long id, long now, boolean record, int code, ThreadContext ctx) {
        if (id <= 0) {
            return false;
        }
        int slot = (int) (id & slotMask);
        if (slots.idAt(slot) != id) {
            return false;
        }
        long start = slotStart[slot];
        long intended = openLoop ? slotIntended[slot] : start;
        if (!free(slot, id)) {
            return false;
        }
        if (record && code >= 0) {
            ctx.recordResponse(code, now - intended, now - start);
        } else if (record) {
            if (openLoop) {
                ctx.record(now - intended, now - start);
            } else {
                ctx.record(now - start);
            }
        }
        return true;
    }

    /**
     * Echo responses carry no id: take the stamp in the payload, or the oldest message in flight that
     * went out on the connection generation {@code gen} the reply came from before the read {@code read}
     * that brought the reply began (-1 if none did: no request asked for it).
     */
    private long echoId(int gen, long read, PayloadView payload) {
        long stamped = serverResponses ? -1 : verifier.stampedId(payload);
        if (stamped != -1) {
            return stamped;
        }
        long oldest = Long.MAX_VALUE;
        for (int i = 0; i <= slotMask; i++) {
            long v = slots.idAt(i);
            if (v > 0 && v < oldest && (slotGen == null || slotGen[i] == gen)
                    && (slotReadsBefore == null || AnswerLedger.sentBefore(slotReadsBefore[i], read))) {
                oldest = v;
            }
        }
        return oldest == Long.MAX_VALUE ? -1 : oldest;
    }

    /** Whether {@code id} is one this connection has sent (its sequence part was handed out). */
    private boolean issued(long id) {
        long seq = id >>> slotBits;
        return id > 0 && seq >= 1 && seq < sequence.get();
    }

    // ---- connection lifecycle ---------------------------------------------------------------------

    /** Messages sent on the current transport connection (churn: reconnect after N). Owner thread only. */
    int sentOnConnection;
    private volatile int generation;

    /**
     * The handler to give the transport for a new connection: it forwards events only while that
     * connection is this one's current, so the close of a connection replaced by churn is not an error.
     */
    ConnectionHandler link() {
        return link(generation);
    }

    private ConnectionHandler link(int gen) {
        return new ConnectionHandler() {
            /**
             * The reading thread's context during a read (onReadStart .. onReadEnd), else null: found once
             * per read instead of once per response. A field of this transport connection's handler, not
             * of the LoadConnection: after a FIFO reopen the old and the new connection may each be in a
             * read on a different I/O thread at once. The transport reports a read's responses on the
             * thread that began it, so only that thread uses the field while it is set.
             */
            private ThreadContext readCtx;
            /** First-in first-out: the number of the read under way ({@link AnswerLedger#readBegins}). */
            private long read;

            @Override
            public void onResponse(long id, int status, PayloadView payload) {
                onResponse(id, status, payload, payload.length());
            }

            @Override
            public void onResponse(long id, int status, PayloadView payload, int wireBytes) {
                ThreadContext ctx = readCtx;
                if (ctx == null) {
                    ctx = context();
                    ctx.received(wireBytes); // every response received counts, whatever it answers
                    LoadConnection.this.onResponse(gen, AnswerLedger.OUTSIDE_A_READ, id, status, payload, ctx);
                } else {
                    ctx.received(wireBytes);
                    LoadConnection.this.onResponse(gen, read, id, status, payload, ctx);
                }
            }

            @Override
            public void onReadStart() {
                if (readCtx == null) { // a second start without an end would never be ended: ignored
                    readCtx = LoadConnection.this.beginRead();
                    if (fifo) {
                        read = ledger.readBegins();
                    }
                }
            }

            @Override
            public void onReadEnd() {
                ThreadContext ctx = readCtx;
                readCtx = null;
                if (ctx != null) {
                    ctx.endRead();
                }
            }

            @Override
            public void onProtocolError(String reason, byte[] head) {
                if (generation == gen) {
                    LoadConnection.this.onProtocolError(reason, head);
                }
            }

            @Override
            public void onWritten(long id) {
                LoadConnection.this.onWritten(id);
            }

            @Override
            public void onHandshakeStart() {
                handshakeStart = System.nanoTime();
                run.handshakes = true;
            }

            @Override
            public void onHandshakeResumed() {
                handshakeResumed = true;
            }

            @Override
            public void onError(ErrorKind kind, String message) {
                LoadConnection.this.onError(gen, kind, message);
            }

            @Override
            public void onClosed() {
                LoadConnection.this.onClosed(gen);
            }

            @Override
            public void onReaderExit() {
                run.releaseContext();
            }
        };
    }

    /**
     * With TLS, during a connect: when the transport said the TCP connect was done and the handshake began
     * ({@link #NO_TIME} until then). Written on the connecting thread or an I/O thread before connect returns.
     */
    private volatile long handshakeStart = NO_TIME;
    /** With TLS, during a connect: the transport said the handshake resumed an earlier session. */
    private volatile boolean handshakeResumed;

    /** With TLS: whether the connect that opened this connection made a handshake (before any reconnect). */
    boolean handshook() {
        return handshakeStart != NO_TIME;
    }

    /**
     * Churn: replaces an idle connection with a new one, timing the connect (and with TLS, apart, the
     * handshake that is its last part); also the replacement of a connection the server closed
     * ({@link #peerCloses}), whose unanswered requests then go out again on the new one first
     * ({@link ClosedConnectionResends}). On failure the connection is counted as a connect error and closed
     * for the rest of the run, and what it still had in flight is lost: read errors.
     */
    void reconnect(ClientTransport transportFactory, InetSocketAddress remote,
                   ThreadContext ctx) {
        ClientConnection old = transport;
        int next = generation + 2;
        synchronized (closeLock) {
            // Odd while the connection is swapped: a sender tagging a message (FIFO) waits for the new one rather
            // than writing it on the old; and the old connection's events are ignored from here on: its close
            // arriving in between would otherwise count as a lost connection (dead), or mark the new connection
            // closed, which would then be replaced with its requests in flight and those sent twice.
            generation = next - 1;
            replaceNeeded.set(false);
        }
        if (old != null) {
            old.close();
        }
        handshakeStart = NO_TIME;
        handshakeResumed = false;
        long t0 = System.nanoTime();
        try {
            ClientConnection fresh = transportFactory.connect(remote, template, link(next));
            long t1 = System.nanoTime();
            synchronized (closeLock) {
                transport = fresh;
                generation = next;
            }
            ctx.recordConnect(t1 - t0);
            long h = handshakeStart;
            if (h != NO_TIME) {
                ctx.recordHandshake(t1 - h, handshakeResumed);
            }
            sentOnConnection = resend(fresh, next);
        } catch (IOException e) {
            synchronized (closeLock) {
                generation = next;
            }
            run.errors.add(ErrorKind.CONNECT);
            run.noteError(ErrorKind.CONNECT, "reconnect of connection " + index + " failed: " + e.getMessage());
            dead = true;
            run.connectionLost(this);
            failAll(ErrorKind.READ); // requests the closed connection left unanswered, if any: lost now
            return;
        }
        // Only now may new requests go out: after the re-sent ones, which are older. A close of the new connection
        // meanwhile (which set replaceNeeded after peerCloses) keeps it closing.
        synchronized (closeLock) {
            peerCloses = replaceNeeded.get();
        }
        wakeWaiters(); // an open-loop pacer waits for the replacement
    }

    /**
     * Sends again, on {@code fresh} (generation {@code gen}), every request a closed connection left unanswered,
     * oldest first, each keeping its slot and id (so it is counted once) and, open loop, its intended time; its
     * latency runs from this send, the one its response answers. Returns how many.
     */
    private int resend(ClientConnection fresh, int gen) {
        if (resends == null) {
            return 0;
        }
        int n = resends.collect(slots, slotGen, gen);
        for (int k = 0; k < n; k++) {
            long id = resends.id(k);
            int slot = (int) (id & slotMask);
            slotGen[slot] = gen;
            if (slotReadsBefore != null) {
                slotReadsBefore[slot] = ledger.readsBegun(); // no reply read before this send may complete it
            }
            slotStart[slot] = run.clock.nanoTime();
            slots.publish(slot, id); // again, releasing the columns just written with it
            transmit(fresh, slot, id);
        }
        return n;
    }

    /**
     * The server said it closes this connection after its latest response (HTTP's {@code Connection: close}):
     * no more requests go out on it; once its close came ({@link #replaceNeeded}) a sender thread (io driver and
     * open loop: the watchdog) replaces it ({@link #reconnect}), re-sending first what it left unanswered.
     */
    volatile boolean peerCloses;
    /**
     * Io driver: set with {@link #peerCloses}, cleared once the replacement sends again ({@link #resumeFromIo}),
     * so that the iteration does not end in between with part of this connection's share unsent.
     */
    volatile boolean awaitingReplacement;
    /**
     * Orders a close of the current connection against its replacement (once per close, never per message): a
     * close checked against the generation just before a churn reconnect moved it would otherwise mark the new
     * connection closed.
     */
    private final Object closeLock = new Object();
    /** The close {@link #peerCloses} announced came: the connection waits to be replaced. */
    final AtomicBoolean replaceNeeded = new AtomicBoolean();

    /**
     * Io driver, after a {@link #reconnect} that replaced a connection the server closed: fills the window
     * again from the messages left to send (its permits came back without successors).
     */
    void resumeFromIo() {
        // Once: the window's permits. A permit that comes back later goes on from the I/O thread.
        for (int k = 0; k < window && !dead && !peerCloses && !run.stopSending && remaining.get() > 0
                && tryAcquire(); k++) {
            if (remaining.decrementAndGet() < 0) {
                releasePermit();
                break;
            }
            sendOne();
        }
        awaitingReplacement = peerCloses;
    }

    /** FIFO echo: a message of the current connection timed out; the watchdog reopens the connection. */
    volatile boolean reopenNeeded;

    /**
     * FIFO echo after a timeout: replies on this connection can no longer be matched to
     * their messages, so it is replaced. Opens the new connection, swaps it in (senders tag their messages
     * with the new generation from then on), closes the old one and fails every message still in flight
     * on it as a timeout; their permits (or, io driver, their successors) go to the new connection.
     * Watchdog thread only. Returns false if the new connection could not be opened.
     */
    boolean reopen(ClientTransport transportFactory, InetSocketAddress remote,
                   ThreadContext ctx) {
        reopenNeeded = false;
        ClientConnection old = transport;
        int next = generation + 2;
        // Once the generation moves, the old connection's replies are late: allow them before it moves, as many as
        // can be in flight, and settle on the count that really timed out below.
        ledger.timeouts(window);
        ClientConnection fresh;
        try {
            fresh = transportFactory.connect(remote, template, link(next));
        } catch (IOException e) {
            run.errors.add(ErrorKind.CONNECT);
            run.noteError(ErrorKind.CONNECT, "reopening connection " + index + " after a timeout failed: "
                    + e.getMessage());
            dead = true;
            generation = next; // the old connection's events no longer count
            if (old != null) {
                old.close();
            }
            run.connectionLost(this);
            failAll(ErrorKind.TIMEOUT);
            return false;
        }
        generation = next - 1;
        transport = fresh;
        generation = next;
        if (old != null) {
            old.close();
        }
        int timedOut = 0;
        for (int i = 0; i <= slotMask; i++) {
            long v = slots.idAt(i);
            if (v > 0 && slotGen[i] != next && free(i, v)) {
                timedOut++;
                run.errors.add(ErrorKind.TIMEOUT);
                complete(ctx);
            }
        }
        ledger.timeouts(timedOut - window);
        return true;
    }

    /** When this connection last heard from the server (run clock), or 0 if never. */
    long lastAnswer() {
        return (long) LAST_ANSWER.getOpaque(this);
    }

    // ---- transport events -------------------------------------------------------------------------

    @Override
    public void onResponse(long id, int status, PayloadView payload) {
        onResponse(id, status, payload, payload.length());
    }

    @Override
    public void onResponse(long id, int status, PayloadView payload, int wireBytes) {
        ThreadContext ctx = context();
        ctx.received(wireBytes);
        onResponse(generation, AnswerLedger.OUTSIDE_A_READ, id, status, payload, ctx);
    }

    @Override
    public void onReadStart() {
        beginRead();
    }

    @Override
    public void onReadEnd() {
        context().endRead();
    }

    /**
     * A read begins on the calling thread: its responses share one clock reading and one histogram
     * critical section, and the context is looked up once for all of them (the look-up was 0.8 % of the
     * nio I/O thread at 50 x 16, the two atomics around each record 0.4 %). Returns the context, which
     * the caller must {@link ThreadContext#endRead end} when the read is done.
     */
    private ThreadContext beginRead() {
        ThreadContext ctx = context();
        ctx.beginRead();
        return ctx;
    }

    /** Now, or the clock reading shared by the responses of the current read. */
    private long responseTime(ThreadContext ctx) {
        if (!ctx.inRead) {
            return run.clock.nanoTime();
        }
        long t = ctx.readTime;
        if (t == NO_TIME) {
            t = run.clock.nanoTime();
            ctx.readTime = t;
        }
        return t;
    }

    /**
     * A response of the connection of generation {@code gen}, brought by read number {@code read} (first-in
     * first-out matching: it completes only a message sent before that read began).
     */
    private void onResponse(int gen, long read, long id, int status, PayloadView payload, ThreadContext ctx) {
        long now = responseTime(ctx);
        LAST_ANSWER.setOpaque(this, now);
        if (fifo && gen != generation) {
            lateResponse(id, status, payload); // a reply on a connection replaced after a timeout
            return;
        }
        if ((status & ClientCodec.CLOSES) != 0) {
            awaitingReplacement = true; // first: the coordinator must not see this connection finished meanwhile
            peerCloses = true; // before the message completes: its successor must not go out on this connection
        }
        if (echo) {
            id = echoId(gen, read, payload);
        } else if (!wellFormed(id, status, payload)) {
            return;
        }
        if (measureSend) {
            // The message was completed by its write; the response is only checked.
            if (serverResponses) {
                countStatus(status);
            } else if (status == Framed.STATUS_REJECTED) {
                run.errors.add(ErrorKind.REJECTED);
            } else if (!verified(id, payload)) {
                run.errors.add(ErrorKind.INTEGRITY);
            }
            return;
        }
        // A server's own response is timed whatever its status (an error status is counted below, by its code);
        // a framed or echo one only when it is the answer asked for.
        boolean ok = serverResponses || codec.success(status) && verified(id, payload);
        int code = serverResponses ? status & ~ClientCodec.CLOSES : -1;
        if (!finish(id, now, ok, code, ctx)) {
            if (!fifo && !issued(id)) {
                unknownId(id, status, payload);
            } else if (fifo && gen == generation && !dead) {
                // First-in first-out, a timeout replaces the connection (its replies then come as another
                // generation's): one that is still current had no message sent before this read left to answer.
                unsolicited(-1, status, payload);
            } else if (fifo) {
                lateResponse(id, status, payload); // a reply of a connection replaced meanwhile after a timeout
            } else if (run.closing) {
                return; // what the close ended did not time out: past judging, and no late response either
            } else if (ledger.lateAnswer((int) (id & slotMask), id) || dead) {
                run.lateResponses.increment(); // its message timed out before it came
            } else {
                unsolicited(id, status, payload); // its message was answered already
            }
            return;
        }
        if (serverResponses) {
            countStatus(status);
        } else if (status == Framed.STATUS_REJECTED) {
            run.errors.add(ErrorKind.REJECTED);
        } else if (!ok) {
            run.errors.add(ErrorKind.INTEGRITY);
            run.noteError(ErrorKind.INTEGRITY, "response payload differs from the request on connection " + index);
        }
        complete(ctx, now);
    }

    /**
     * First-in first-out, a reply on a connection replaced after a timeout: late if a timeout explains it, else one
     * no request asked for. A dead connection's replies (its last reopen failed: what it had in flight timed out)
     * only count as late; a run closing its connections ends what is still in flight without a timeout, so what
     * comes then is past judging and not late either.
     */
    private void lateResponse(long id, int status, PayloadView payload) {
        if (run.closing) {
            return;
        }
        if (ledger.late() || dead) {
            run.lateResponses.increment();
        } else {
            unsolicited(id, status, payload);
        }
    }

    /**
     * The server sent a response no request asked for: never timed, and the run stops at once, as for any
     * peer that does not keep the protocol. With first-in first-out matching every later response on this
     * connection would be credited to the request before its own; with ids, the server answers twice.
     */
    private void unsolicited(long id, int status, PayloadView payload) {
        String sent;
        if (serverResponses) {
            sent = "a response with status " + (status & ~ClientCodec.CLOSES);
        } else if (echo) {
            sent = PeerBytes.describe(payloadHead(payload));
        } else {
            sent = PeerBytes.describe(frameHead(id, status, payload));
        }
        String which = id > 0 ? ", a second response to request id " + id
                : " when every request written before it was read had its answer";
        run.protocolMismatch(AbortCause.UNSOLICITED_RESPONSE, "the server sent a response no request asked for on "
                + "connection " + index + " (it sent " + sent + which + "): a server must answer each request once"
                + (fifo ? ", in order (without ids responses are matched first-in first-out)" : ""));
    }

    /** Whether this connection has noted an error status yet; I/O thread only. */
    private boolean statusNoted;

    /** A server's own response (HTTP): counted by status code; one that is not a success is an error. */
    private void countStatus(int status) {
        int code = status & ~ClientCodec.CLOSES;
        run.statuses.add(code);
        if (!codec.success(status)) {
            run.errors.add(ErrorKind.STATUS);
            if (!statusNoted) { // once per connection: the run keeps the first message only
                statusNoted = true;
                run.noteError(ErrorKind.STATUS, "the server answered with status " + code + " (connection "
                        + index + ")");
            }
        }
    }

    /**
     * A framed response must be as long as asked for (nothing for a rejection). One that is not means the
     * peer speaks another protocol: the run cannot measure anything, so it is aborted at once.
     */
    private boolean wellFormed(long id, int status, PayloadView payload) {
        int expected = status == Framed.STATUS_OK ? template.responseLength() : 0;
        if (payload.length() == expected) {
            return true;
        }
        if (payload.length() + Framed.RESPONSE_FIXED == Framed.requestFrameLength(template.payloadSize())
                && (id >>> 32) == template.responseLength()) {
            // The "response" is our own request read back: its frameLength and responseLength fields
            // are where a response has its frameLength and the top of its id.
            run.protocolMismatch(AbortCause.ECHO_PEER, "protocol mismatch: the server echoes the request "
                    + "(it is an echo server): use --protocol echo");
        } else {
            run.protocolMismatch(AbortCause.FOREIGN_PEER, foreignPeer("a response of " + payload.length()
                    + " bytes where " + expected + " were asked for", frameHead(id, status, payload)));
        }
        return false;
    }

    /** A response with an id this connection never sent: the peer does not answer nbench's requests. */
    private void unknownId(long id, int status, PayloadView payload) {
        if (echo) {
            byte[] head = payloadHead(payload);
            run.protocolMismatch(AbortCause.FOREIGN_PEER, PeerBytes.tlsRecord(head) ? PeerBytes.tlsPeer(head)
                    : "protocol mismatch: the peer does not echo what was sent (it sent " + PeerBytes.describe(head)
                    + "): is it an echo server?");
        } else {
            run.protocolMismatch(AbortCause.FOREIGN_PEER, foreignPeer("a response to id " + id
                    + ", which was never sent", frameHead(id, status, payload)));
        }
    }

    private String foreignPeer(String what, byte[] head) {
        if (PeerBytes.tlsRecord(head)) {
            return PeerBytes.tlsPeer(head);
        }
        return "protocol mismatch: the peer does not speak nbench's " + template.protocol().label()
                + " protocol (it sent " + PeerBytes.describe(head) + ", " + what + "): is it an nbench server?";
    }

    /** The first bytes of an echo response, for the error message. */
    private static byte[] payloadHead(PayloadView payload) {
        byte[] head = new byte[Math.min(PeerBytes.HEAD, payload.length())];
        for (int i = 0; i < head.length; i++) {
            head[i] = payload.getByte(i);
        }
        return head;
    }

    /** The first bytes of a framed response as they were on the wire, for the error message. */
    private static byte[] frameHead(long id, int status, PayloadView payload) {
        ByteBuffer b = ByteBuffer.allocate(PeerBytes.HEAD);
        b.putInt(payload.length() + Framed.RESPONSE_FIXED).putLong(id).put((byte) status);
        for (int i = 0; i < payload.length() && b.hasRemaining(); i++) {
            b.put(payload.getByte(i));
        }
        return Arrays.copyOf(b.array(), b.position());
    }

    private boolean verified(long id, PayloadView payload) {
        if (verifyNone) {
            return true;
        }
        boolean header = idIsStamp ? verifier.checkLength(payload) : verifier.checkHeader(id, payload);
        return header && (!verifyFull && ((id >>> slotBits) & FULL_CHECK_MASK) != 0 || verifier.checkBody(payload));
    }

    @Override
    public void onWritten(long id) {
        if (!measureSend) {
            return;
        }
        long now = run.clock.nanoTime();
        LAST_ANSWER.setOpaque(this, now);
        ThreadContext ctx = context();
        if (finish(id, now, true, ctx)) {
            complete(ctx);
        }
    }

    /** A frame no response of this protocol can be: say what the peer sent, and stop the run. */
    @Override
    public void onProtocolError(String reason, byte[] head) {
        if (run.closing) {
            return;
        }
        String text = PeerBytes.describe(head);
        if (PeerBytes.tlsRecord(head)) {
            run.protocolMismatch(AbortCause.FOREIGN_PEER, PeerBytes.tlsPeer(head));
        } else if (serverResponses) {
            run.protocolMismatch(AbortCause.FOREIGN_PEER, reason + " (it sent " + text + ")");
        } else if (echo) {
            run.protocolMismatch(AbortCause.FOREIGN_PEER, "protocol mismatch: " + reason + " (the peer sent " + text
                    + ")");
        } else {
            run.protocolMismatch(AbortCause.FOREIGN_PEER, "protocol mismatch: the peer does not speak nbench's "
                    + template.protocol().label() + " protocol (it sent " + text + ": " + reason
                    + "): is it an nbench server?");
        }
    }

    @Override
    public void onError(ErrorKind kind, String message) {
        onError(generation, kind, message);
    }

    /**
     * An error of the connection of generation {@code gen}. Its announced close ({@link #peerCloses}) is read
     * before the generation: {@link #reconnect} moves the generation before it clears {@code peerCloses}, so a
     * reader that finds it cleared also finds the generation moved, and ignores the replaced connection's error
     * (checked the other way round, a reconnect between the two reads counted a reset of the old connection, which
     * the server closed as announced, as a read error of the new one: seen in CI with --requests-per-connection 1).
     */
    private void onError(int gen, ErrorKind kind, String message) {
        if (run.closing) {
            return;
        }
        boolean closeAnnounced = peerCloses;
        if (generation != gen) {
            return; // the connection was replaced: its events are no longer this connection's
        }
        if ((kind == ErrorKind.READ || kind == ErrorKind.WRITE) && closeAnnounced) {
            // The last response said the server closes (Connection: close) and was read whole; a server may close
            // with a reset rather than a FIN (SO_LINGER 0, or data of ours it never read), and the reader may see
            // it before the client replaced the connection. Likewise a write that finds it closed: nbench writes no
            // request after an announced close, but a TLS layer may still write its close_notify (MINA's SslFilter
            // does, into the closed session: WriteToClosedSessionException against nginx, CI). onClosed, which
            // follows, still fails (and counts) any request in flight; a reset before that response was whole has
            // peerCloses unset and counts here.
            return;
        }
        erroredGeneration = gen;
        run.errors.add(kind);
        run.noteError(kind, message);
    }

    /** The generation of the connection that last reported an error: its close is not a clean one. */
    private volatile int erroredGeneration = -1;

    @Override
    public void onClosed() {
        onClosed(generation);
    }

    /**
     * The connection of generation {@code gen} closed; as {@link #onError(int, ErrorKind, String)}, the announced
     * close is read before the generation, so the close of a connection replaced meanwhile is ignored rather than
     * failing the new connection's requests in flight.
     */
    private void onClosed(int gen) {
        boolean closeAnnounced = peerCloses;
        if (generation != gen) {
            return;
        }
        if ((closeAnnounced || serverResponses) && !run.closing) {
            synchronized (closeLock) {
                if (generation != gen) {
                    return; // replaced meanwhile (churn): its close must not mark the new connection
                }
                awaitingReplacement = true;
                peerCloses = true;
                replaceNeeded.set(true);
            }
            // The server closed as its last response said it would (HTTP's Connection: close), or an HTTP
            // server closed it unannounced, which RFC 9112 (9.6) allows at any time: not a lost connection
            // but one to replace (a failed reconnect then ends it). Requests in flight on it were never answered:
            // after a clean close they stay in flight and go out again on the replacement (reconnect); after an
            // error on this connection (a reset, a broken response) they are lost: read errors.
            boolean clean = resends != null && erroredGeneration != gen;
            if (clean) {
                wakeWaiters(); // a sender parked on this connection's permits replaces it
            } else {
                failAll(ErrorKind.READ);
            }
            run.replaceClosed();
            return;
        }
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
            long v = slots.idAt(i);
            if (v > 0 && free(i, v)) {
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
            long v = slots.idAt(i);
            if (v > 0 && now - slotStart[i] > timeoutNanos && slotGen != null && slotGen[i] == generation
                    && !dead) {
                // FIFO: the watchdog reopens the connection, which fails this message and all after it.
                reopenNeeded = true;
                expired++;
                continue;
            }
            if (v > 0 && now - slotStart[i] > timeoutNanos) {
                if (fifo) {
                    ledger.timeouts(1); // first: a reply that finds the slot freed finds its timeout counted
                } else {
                    ledger.timingOut(i, v); // first: a reply that finds the slot freed finds it recorded
                }
                if (!free(i, v)) {
                    if (fifo) {
                        ledger.timeouts(-1); // its reply came first
                    } else {
                        ledger.answeredFirst(i, v);
                    }
                    continue;
                }
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
        if (c == null || c.owner != me) {
            c = run.contextFor(me);
            cached = c;
        }
        c.lookups++;
        return c;
    }
}
