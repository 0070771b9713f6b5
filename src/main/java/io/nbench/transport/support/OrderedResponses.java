package io.nbench.transport.support;

import io.nbench.transport.BusinessPool;
import io.nbench.transport.ResponseTimer;
import io.nbench.transport.ServerEvents;
import io.nbench.transport.ServerRuntime;
import java.util.ArrayDeque;

/**
 * One connection's requests answered later from another thread, in request order: the path of
 * {@link RequestPipeline} for requests offloaded to the business pool, and for those completed by the timer of
 * {@code --work-mode delay} ({@link ServerRuntime#timer}).
 *
 * <p>Each request is its own pool task, so the pool's bounded queue and its growth from CORE to MAX
 * threads see every request exactly as a ThreadPoolExecutor handed one task per request would (what a
 * handler submitting to an executor does). Pipelined requests of one connection may therefore finish
 * out of order on several threads; this class puts their responses back in request order: a response
 * leaves only when every earlier request of the connection has left. The alternative, processing one
 * connection's requests one at a time, would hide a connection's backlog from the pool's queue (no
 * rejection with one connection however deep its pipeline) and leave threads idle that a pipelining
 * client could use.
 *
 * <p>With the timer no thread waits: each request is scheduled when decoded and completed by the timer's
 * thread the delay later, which then sends what is ready at the head of the order. Every request waits the
 * same delay, so they complete in order anyway; the order does not rest on it (two I/O threads, the timer's
 * ties), as the same head-of-order drain puts them back in order whatever completes first.
 *
 * <p>A request the pool refuses (full) is answered with its protocol's rejection (framed: a rejected frame;
 * HTTP: 503), in its place in the order, and
 * logged at a rate limit. The writer is called under this connection's lock, one call at a time, from
 * the pool or timer thread that completed the oldest outstanding request or from the I/O thread for a
 * rejection. Costs an object and a lock per request; only these paths pay them.
 *
 * @param <R> the transport's response object (a buffer), built by the I/O thread at decode
 */
final class OrderedResponses<R> {

    private static final String FULL = "the business pool is full (every thread busy, --executor-queue full): "
            + "requests answered 'rejected'; raise --executor-threads or --executor-queue, or send less";

    private final ServerRuntime runtime;
    /** Where requests go: exactly one of the two is set. */
    private final BusinessPool pool;
    private final ResponseTimer timer;
    private final ServerEvents events;
    private final RequestPipeline.Writer<R> writer;
    /** Requests not yet answered, oldest first. Guarded by this. */
    private final ArrayDeque<Request> pending = new ArrayDeque<>();
    private boolean closed;

    OrderedResponses(ServerRuntime runtime, ServerEvents events, RequestPipeline.Writer<R> writer) {
        this.runtime = runtime;
        this.pool = runtime.pool();
        ResponseTimer shared = pool == null ? runtime.timer() : null;
        this.timer = shared != null && writer.loop() != null ? shared.on(writer.loop()) : shared;
        this.events = events;
        this.writer = writer;
        if (pool == null && timer == null) {
            throw new IllegalArgumentException("no business pool, no timer: requests are answered on the I/O thread");
        }
    }

    /**
     * Hands a decoded request to the pool or the timer (called by the I/O thread, in request order).
     * {@code response} is its response, written once its work is done; null, with {@code responseBytes} 0, for a one-way
     * request, which gets no frame, not even a rejected one.
     */
    void submit(long id, int requestBytes, int responseBytes, R response) {
        Request r = new Request(id, requestBytes, responseBytes, response, System.nanoTime());
        events.requestReceived(requestBytes);
        boolean afterClose;
        synchronized (this) {
            pending.addLast(r);
            afterClose = closed;
        }
        if (afterClose) {
            events.requestsDropped(1); // its connection is gone already: it will never be answered
        }
        if (timer != null) {
            timer.schedule(r);
        } else if (!pool.offer(r)) {
            synchronized (this) {
                r.state = REJECTED;
            }
            events.trouble("rejected", FULL);
            drain();
        }
    }

    /**
     * The connection is closed: responses still to come are released instead of written, and the requests
     * not answered yet (queued, being worked on, or done but waiting for an earlier one) are counted as
     * dropped, now and once, whatever their pool tasks do later (a stopping pool may never run them).
     */
    void close() {
        int unanswered;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            unanswered = (int) pending.stream().filter(r -> r != END).count();
        }
        if (unanswered > 0) {
            events.requestsDropped(unanswered);
        }
        drain();
    }

    /**
     * The connection takes no more requests: once every response before this point has been written, the
     * writer is told to {@link RequestPipeline.Writer#end end} it (called by the I/O thread, after the last
     * {@link #submit}).
     */
    void end() {
        synchronized (this) {
            pending.addLast(END);
        }
        drain();
    }

    private static final int QUEUED = 0;
    private static final int DONE = 1;
    private static final int REJECTED = 2;

    /** Writes the responses at the head of the order whose requests are complete. */
    private synchronized void drain() {
        Request r;
        while ((r = pending.peekFirst()) != null && r.state != QUEUED) {
            pending.pollFirst();
            if (closed) {
                if (r.response != null) {
                    writer.discard(r.response);
                }
            } else if (r == END) {
                writer.end();
            } else if (r.state == REJECTED) {
                events.requestRejected(r.responseBytes > 0 ? writer.reject(r.id, r.response) : 0);
            } else {
                if (r.response != null) {
                    writer.send(r.response);
                }
                // The response has been handed to the transport's write path (see docs/server.md for
                // how close to the kernel that is per transport).
                events.processed(System.nanoTime() - r.decodedAt);
                events.requestAnswered(r.requestBytes, r.responseBytes);
            }
        }
    }

    /** The place in the order after which the connection ends ({@link #end}): never run, never counted. */
    private final Request END = new Request(0, 0, 0, null, 0);

    {
        END.state = DONE;
    }

    /**
     * One request: the pool task that does its work, or the timer's task that completes it, then its place in
     * the order.
     */
    private final class Request implements Runnable {
        final long id;
        final int requestBytes;
        final int responseBytes;
        final R response;
        final long decodedAt;
        /** Guarded by the enclosing instance. */
        int state;

        Request(long id, int requestBytes, int responseBytes, R response, long decodedAt) {
            this.id = id;
            this.requestBytes = requestBytes;
            this.responseBytes = responseBytes;
            this.response = response;
            this.decodedAt = decodedAt;
        }

        @Override
        public void run() {
            if (timer != null) {
                completed(); // no queue and no work: the delay was the work
                return;
            }
            events.queueWait(System.nanoTime() - decodedAt);
            try {
                runtime.work();
            } finally {
                completed();
            }
        }

        private void completed() {
            synchronized (OrderedResponses.this) {
                state = DONE;
            }
            drain();
        }
    }
}
