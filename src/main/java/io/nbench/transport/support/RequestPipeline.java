package io.nbench.transport.support;

import io.nbench.protocol.Protocol;
import io.nbench.transport.ResponseTimer;
import io.nbench.transport.ServerEvents;
import io.nbench.transport.ServerRuntime;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * One server connection's requests from decoded to answered: everything between a transport's decoder and
 * its write path that is not moving bytes, the same for every server transport. It owns where a request is
 * processed (on the I/O thread, or on nbench's business pool when the server has one), the simulated
 * {@code --work} (or its timer, {@code --work-mode delay}: the response completed later, no thread waiting),
 * the processing clock ({@link ProcessingClock}), the response order of pooled and delayed requests and
 * their rejection ({@link OrderedResponses}), and every request event the server's metrics count. A
 * transport only decodes, calls {@link #decoded} per request and {@link #flushed} per written batch, and
 * {@link #close} when the connection closes; it writes what the pipeline gives its {@link Writer}.
 *
 * <p>Accounting: every request is counted received when decoded, then exactly one of answered (its response
 * sent: see below), rejected or dropped (its connection closed first). On the I/O thread a request
 * is counted received when decoded (before its {@code --work}, if any) and answered at {@link #flushed}, when
 * the transport has handed its batch's bytes to the socket: a response queued in the transport and lost with
 * its connection (a peer that went away, a close that discarded the queue) is dropped, never answered, and
 * the one being worked on when the server stops shows in progress. Handed off to a transport's own executor, a
 * request is received when handed off and answered when that executor's thread has written it, or dropped if
 * its connection closes first; on the business pool or the delay timer, answered once its response is handed
 * to the transport's write path ({@link OrderedResponses}).
 *
 * <p>Threads: {@link #decoded}, {@link #flushed} and {@link #close} on the connection's I/O thread (one at a
 * time, no lock on the inline path, and no allocation once its arrays have grown to the largest batch);
 * the pool path costs an object and a lock per request ({@link OrderedResponses}), the hand-off path a
 * {@link HandOff} and an atomic counter update per request. {@link #handedOffWork} and
 * {@link #handedOffFlushed} run on the transport's own executor thread instead.
 *
 * @param <R> the transport's response object (a buffer)
 */
public final class RequestPipeline<R> {

    /** How the transport puts a response on its connection. */
    public interface Writer<R> {
        /**
         * On the I/O thread: the response joins the read batch, which the transport flushes (then calls
         * {@link RequestPipeline#flushed}). By default sent at once.
         */
        default void write(R response) {
            send(response);
        }

        /**
         * The response leaves now: called in request order, one call at a time, from a pool thread or the
         * delay timer's thread (which must never block on a slow peer if the transport can help it: hand the
         * write to the connection's I/O thread, or to a framework's thread-safe write).
         */
        void send(R response);

        /**
         * Answers request {@code id} with the protocol's rejection instead of {@code response} (null if none),
         * which it releases; returns the bytes of the rejection.
         */
        int reject(long id, R response);

        /** The connection is closed: releases a response that will not be written. */
        void discard(R response);

        /**
         * The connection's event loop, if its deadlines are kept precisely ({@link ResponseTimer#on}): the delay
         * timer completes this connection's responses there, on its own I/O thread. Null (the default): on the
         * timer's thread.
         */
        default ScheduledExecutorService loop() {
            return null;
        }

        /**
         * No response follows those sent so far (the protocol ended the connection, HTTP's
         * {@code Connection: close}): close the connection once they are written. From the I/O thread, or a
         * pool thread after the last response.
         */
        void end();
    }

    /**
     * A writer of heap responses ({@link ResponseCapture}'s): {@code send} puts one on the connection; a
     * rejection is {@code protocol}'s ({@link Protocol#rejectedResponse}) sent the same way; {@code end} closes
     * the connection once what was sent is written; nothing to release.
     */
    public static Writer<ByteBuffer> heapResponses(Protocol protocol, Consumer<ByteBuffer> send, Runnable end) {
        return new Writer<>() {
            @Override
            public void send(ByteBuffer response) {
                send.accept(response);
            }

            @Override
            public int reject(long id, ByteBuffer response) {
                ByteBuffer rejection = protocol.rejectedResponse(response);
                int bytes = rejection.remaining();
                send.accept(rejection);
                return bytes;
            }

            @Override
            public void discard(ByteBuffer response) {
                // a heap buffer: nothing to give back
            }

            @Override
            public void end() {
                end.run();
            }
        };
    }

    /**
     * A request a transport hands on to its own executor: what the executor's thread needs to do its work,
     * write its response (null for a one-way request) and count it.
     */
    public record HandOff<R>(int requestBytes, int responseBytes, R response) {
    }

    /** {@link #handedOff} once the connection is closed: below zero, whatever the increments after it. */
    private static final long CLOSED = Long.MIN_VALUE / 2;

    private final ServerRuntime runtime;
    private final ServerEvents events;
    private final Writer<R> writer;
    private final boolean work;
    private final ProcessingClock clock;
    /** Null unless requests go to nbench's business pool or the delay timer ({@link ServerRuntime#answersLater}). */
    private final OrderedResponses<R> pooled;
    /** The clock of the transport's own executor thread (hand-off); null when there is none. */
    private final ProcessingClock handOffClock;
    /**
     * Hand-off: requests received and neither answered nor dropped yet, or {@link #CLOSED} plus those handed
     * off after the close. The I/O thread adds, the executor's thread takes away, the close takes the rest.
     */
    private final AtomicLong handedOff = new AtomicLong();
    /** Hand-off, on the executor's thread: request and response bytes of what it wrote since its last flush. */
    private int[] unflushedOff;
    private int unflushedOffCount;
    /** On the I/O thread: request and response bytes of the requests decoded since the last flush. */
    private int[] unflushed;
    private int unflushedCount;
    /** Of those, the first ones a {@link #batchEnded} counted (their transport awaits their bytes' sending). */
    private int marked;
    private boolean closed;

    private RequestPipeline(ServerRuntime runtime, ServerEvents events, Writer<R> writer, boolean handOff) {
        this.runtime = runtime;
        this.events = events;
        this.writer = writer;
        // Without a pool, --work runs where the request is answered: the I/O thread, or the transport's own
        // executor when it hands requests off to one.
        this.work = runtime.hasWork() && !handOff;
        this.clock = new ProcessingClock(events, runtime.hasWork());
        this.pooled = runtime.answersLater() ? new OrderedResponses<>(runtime, events, writer) : null;
        this.handOffClock = handOff && pooled == null ? new ProcessingClock(events, runtime.hasWork()) : null;
        this.unflushed = new int[32];
        this.unflushedOff = handOffClock != null ? new int[32] : null;
    }

    /** A connection's pipeline: its requests answered on the I/O thread, nbench's business pool or the delay timer. */
    public static <R> RequestPipeline<R> of(ServerRuntime runtime, ServerEvents events, Writer<R> writer) {
        return new RequestPipeline<>(runtime, events, writer, false);
    }

    /**
     * A connection whose transport hands each request on to its own executor ({@code -O netty.executor},
     * {@code mina.executor}), unless the server has nbench's business pool or the delay timer, which come first
     * ({@link #handsOff}). The executor thread does the work and writes with {@link #handedOffWork} and
     * {@link #handedOffFlushed}.
     */
    public static <R> RequestPipeline<R> handingOff(ServerRuntime runtime, ServerEvents events, Writer<R> writer) {
        return new RequestPipeline<>(runtime, events, writer, true);
    }

    /**
     * Responses leave later from another thread, nbench's business pool's or the delay timer's: the transport
     * passes each request's whole response to {@link #decoded} (none is streamed or written with the read
     * batch); those threads send them with {@link Writer#send}.
     */
    public boolean pooled() {
        return pooled != null;
    }

    /** Requests go on to the transport's own executor: the transport passes them there and calls {@link #handedOff}. */
    public boolean handsOff() {
        return handOffClock != null;
    }

    /** Every response must be built whole before it leaves (pool or hand-off): the transport streams none. */
    public boolean wholeResponses() {
        return pooled != null || handOffClock != null;
    }

    /**
     * A request was decoded, on the I/O thread, in request order. {@code response} is its response for the
     * writer, or null when it has none (one-way, {@code responseBytes} 0) or the transport has put it on its
     * write path already (inline only). Inline, the work is done and the response written here, before this
     * returns; pooled, both happen later on a pool thread (delayed: the timer's thread completes it).
     */
    public void decoded(long id, int requestBytes, int responseBytes, R response) {
        if (pooled != null) {
            pooled.submit(id, requestBytes, responseBytes, response);
            return;
        }
        clock.decoded();
        events.requestReceived(requestBytes);
        if (work) {
            runtime.work();
        }
        if (response != null) {
            writer.write(response);
        }
        if (2 * unflushedCount == unflushed.length) {
            unflushed = Arrays.copyOf(unflushed, unflushed.length * 2);
        }
        unflushed[2 * unflushedCount] = requestBytes;
        unflushed[2 * unflushedCount + 1] = responseBytes;
        unflushedCount++;
    }

    /**
     * The transport handed every response of the requests decoded so far to the socket (the kernel took their
     * bytes, or the framework's write path that writes them reported them written): their processing time ends
     * now, and they are answered now. Not before: a response still queued in the transport when its connection
     * closes (a peer that went away, a close that discarded the queue) was never sent, and its request is
     * counted dropped by {@link #close}, not answered.
     */
    public void flushed() {
        flushed(unflushedCount);
    }

    /**
     * For a transport whose writes leave after the read that queued them (MINA's processor writes a session's
     * queue later): the requests decoded since the last call, whose responses are all on the write path now.
     * The transport notes where this batch ends in its write queue and calls {@link #flushed(int)} with the
     * count once the socket took that far.
     */
    public int batchEnded() {
        int n = unflushedCount - marked;
        marked = unflushedCount;
        return n;
    }

    /**
     * As {@link #flushed()} for the first {@code count} requests not answered yet (a batch {@link #batchEnded}
     * returned): the socket took their responses; those decoded after them wait for their own batch.
     */
    public void flushed(int count) {
        int n = Math.min(count, unflushedCount);
        clock.written(n);
        for (int i = 0; i < n; i++) {
            events.requestAnswered(unflushed[2 * i], unflushed[2 * i + 1]);
        }
        unflushedCount -= n;
        marked = Math.max(0, marked - n);
        if (unflushedCount > 0) {
            System.arraycopy(unflushed, 2 * n, unflushed, 0, 2 * unflushedCount);
        }
    }

    /**
     * On the I/O thread: a decoded request the transport hands on to its own executor (then passes it there,
     * in request order, and its thread calls {@link #handedOffWork}). Counted received now; its response (null
     * for a one-way request) is released by whoever writes it.
     */
    public HandOff<R> handedOff(int requestBytes, int responseBytes, R response) {
        events.requestReceived(requestBytes);
        if (handedOff.getAndIncrement() < 0) {
            events.requestsDropped(1); // its connection is closed already: it will never be answered
        }
        return new HandOff<>(requestBytes, responseBytes, response);
    }

    /**
     * On the transport's executor thread, in request order: a handed-off request's work. Returns its response
     * (null if none) for the transport to write; then {@link #handedOffFlushed} once it has flushed.
     */
    public R handedOffWork(HandOff<R> request) {
        handOffClock.decoded();
        runtime.work();
        if (2 * unflushedOffCount == unflushedOff.length) {
            unflushedOff = Arrays.copyOf(unflushedOff, unflushedOff.length * 2);
        }
        unflushedOff[2 * unflushedOffCount] = request.requestBytes();
        unflushedOff[2 * unflushedOffCount + 1] = request.responseBytes();
        unflushedOffCount++;
        return request.response();
    }

    /**
     * On the transport's executor thread: the responses it wrote since the last call were flushed, so their
     * requests are answered, those whose connection has not closed meanwhile (the close counted them dropped).
     */
    public void handedOffFlushed() {
        handOffClock.written();
        for (int i = 0; i < unflushedOffCount; i++) {
            if (handedOff.getAndDecrement() > 0) {
                events.requestAnswered(unflushedOff[2 * i], unflushedOff[2 * i + 1]);
            }
        }
        unflushedOffCount = 0;
    }

    /**
     * On the I/O thread: the connection takes no more requests (its protocol ended it: HTTP's {@code Connection:
     * close}). Once the response of every request decoded so far has been handed to the writer, it is told to
     * {@link Writer#end}: at once when they have been (inline), else after the last pooled one.
     */
    public void end() {
        if (pooled != null) {
            pooled.end();
        } else {
            writer.end();
        }
    }

    /**
     * The connection is closed (on its I/O thread; again is harmless): pooled requests not answered yet are
     * dropped and their responses released; the requests of a batch not yet handed to the socket are dropped, and
     * so are handed-off requests not answered yet (their executor may still run them: their writes fail).
     */
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (pooled != null) {
            pooled.close();
        }
        if (unflushedCount > 0) {
            events.requestsDropped(unflushedCount);
            unflushedCount = 0;
            marked = 0;
        }
        if (handOffClock != null) {
            long unanswered = handedOff.getAndSet(CLOSED);
            if (unanswered > 0) {
                events.requestsDropped((int) unanswered);
            }
        }
    }
}
