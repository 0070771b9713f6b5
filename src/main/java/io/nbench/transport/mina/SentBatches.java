package io.nbench.transport.mina;

import io.nbench.transport.support.RequestPipeline;
import org.apache.mina.core.filterchain.IoFilterAdapter;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.core.write.WriteRequest;

/**
 * When a session's requests are answered: once MINA's processor has written their responses to the socket, not
 * when they joined the session's write queue (which a close discards: a half-closed peer's responses were lost
 * while counted answered). A read batch's responses are queued during the read and written after it; the batch
 * ends at the last message written during it, and is answered at that message's {@code messageSent}. Messages are
 * told apart by identity, as the handler wrote them (a TLS session's records, handshake ones included, come
 * back to {@link Filter} as the message they carried). One per session, on its processor thread; no allocation
 * once the ring has grown to the most batches in flight.
 */
final class SentBatches {

    static final String NAME = "nbench-sent";
    private static final String KEY = "nbench.sent";

    /** The last message written since the last batch end; null: none. */
    private Object last;
    private RequestPipeline<?> pipeline;
    /** Per batch not yet written, oldest first (a ring): its last message, and its requests. */
    private Object[] lastOf = new Object[4];
    private int[] requests = new int[4];
    private int head;
    private int count;

    /** Gives {@code session} its batches: {@link Filter} does when the session is created. */
    static void attach(IoSession session) {
        session.setAttribute(KEY, new SentBatches());
    }

    /** The session's batches (made by {@link Filter} when the session is created). */
    static SentBatches of(IoSession session) {
        return (SentBatches) session.getAttribute(KEY);
    }

    /** At the end of a read batch, its responses queued: answered now if nothing is queued, else once written. */
    void ended(RequestPipeline<?> requests) {
        int n = requests.batchEnded();
        if (n == 0) {
            return;
        }
        pipeline = requests;
        Object end = last;
        last = null;
        if (end == null) {
            // Nothing written in this batch (one-way requests): done when the batches before it are.
            if (count == 0) {
                requests.flushed(n);
            } else {
                this.requests[(head + count - 1) % lastOf.length] += n;
            }
            return;
        }
        if (count == lastOf.length) {
            grow();
        }
        int at = (head + count) % lastOf.length;
        lastOf[at] = end;
        this.requests[at] = n;
        count++;
    }

    private void sent(Object message) {
        if (count > 0 && lastOf[head] == message) {
            lastOf[head] = null;
            int n = requests[head];
            head = (head + 1) % lastOf.length;
            count--;
            pipeline.flushed(n);
        }
    }

    private void grow() {
        Object[] l = new Object[lastOf.length * 2];
        int[] r = new int[lastOf.length * 2];
        for (int i = 0; i < count; i++) {
            l[i] = lastOf[(head + i) % lastOf.length];
            r[i] = requests[(head + i) % lastOf.length];
        }
        lastOf = l;
        requests = r;
        head = 0;
    }

    /**
     * Last in the chain, next to the handler: sees every message the handler side writes before any codec or TLS
     * changes it, and its {@code messageSent} once it was written whole. Only batches of requests answered on the
     * processor thread are ever waited for, so only its writes matter; others' (a pool's) may race on
     * {@link #last} harmlessly, since no batch of theirs ends.
     */
    static final class Filter extends IoFilterAdapter {
        @Override
        public void sessionCreated(NextFilter next, IoSession session) throws Exception {
            attach(session);
            next.sessionCreated(session);
        }

        @Override
        public void filterWrite(NextFilter next, IoSession session, WriteRequest request) throws Exception {
            SentBatches batches = of(session);
            if (batches != null) {
                batches.last = request.getOriginalMessage();
            }
            next.filterWrite(session, request);
        }

        @Override
        public void messageSent(NextFilter next, IoSession session, WriteRequest request) throws Exception {
            SentBatches batches = of(session);
            if (batches != null) {
                batches.sent(request.getOriginalMessage());
            }
            next.messageSent(session, request);
        }
    }
}
