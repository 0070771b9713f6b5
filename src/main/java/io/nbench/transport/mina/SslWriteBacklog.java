package io.nbench.transport.mina;

import java.util.ArrayDeque;
import org.apache.mina.core.session.AttributeKey;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.core.write.WriteRequest;

/**
 * A session's writes that SslFilter's handler has no room for yet. MINA 2.2's handler keeps at most 6 records
 * unacknowledged and queues up to 64 writes behind them ({@code MAX_QUEUED_MESSAGES}); the 65th throws
 * {@code BufferOverflowException}, and the connection is lost. A server answering one read of many pipelined
 * requests, or a client with a large window, writes that many before MINA's processor can acknowledge any. The
 * writes past {@link #ROOM} wait here, in order, and go to the handler as it acknowledges earlier ones.
 *
 * <p>Every method runs under the monitor of the session's handler, which its own methods synchronize on: the
 * backlog needs no lock of its own and adds none to order with MINA's.
 */
final class SslWriteBacklog {

    /** MINA's MAX_QUEUED_MESSAGES: writes the handler holds before it refuses one. */
    static final int ROOM = 64;

    private static final AttributeKey KEY = new AttributeKey(SslWriteBacklog.class, "backlog");

    private final ArrayDeque<WriteRequest> waiting = new ArrayDeque<>();
    /** Writes given to the handler and not yet acknowledged to the filter. */
    private int inHandler;

    /** The session's backlog, made by its first write. */
    static SslWriteBacklog of(IoSession session) {
        SslWriteBacklog b = (SslWriteBacklog) session.getAttribute(KEY);
        if (b == null) {
            b = new SslWriteBacklog();
            session.setAttribute(KEY, b);
        }
        return b;
    }

    /** Whether {@code request} may go to the handler now (counted); else it waits here, behind the others. */
    boolean admit(WriteRequest request) {
        if (inHandler < ROOM && waiting.isEmpty()) {
            inHandler++;
            return true;
        }
        waiting.add(request);
        return false;
    }

    /** A write the handler took and then refused, or one it acknowledged: room for one more. */
    void done() {
        inHandler--;
    }

    /** The next waiting write that now has room (counted), or null. */
    WriteRequest next() {
        if (inHandler >= ROOM || waiting.isEmpty()) {
            return null;
        }
        inHandler++;
        return waiting.poll();
    }
}
