package io.nbench.load;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one connection's server may still send besides the answers to the messages in flight, so that a response
 * no request asked for is named as such instead of being timed or excused as late.
 *
 * <p><b>Reads.</b> Responses without an id (HTTP, echo without a stamp) are matched first-in first-out. A response
 * may only complete a message that went out before the read that brought it began: the io driver sends the next
 * message from inside the read whose response freed its permit, and an extra response later in that same read would
 * otherwise "complete" it with a clock reading no later than its send (a server answering twice then measured p50
 * 0.0 µs). So every read of the connection is numbered ({@link #readBegins}, once per read, on the reading thread),
 * each first-in first-out message records how many reads had begun when it went out ({@link #readsBegun}, before it
 * is published and handed to the transport), and a read numbered {@code r} may complete only messages that recorded
 * less than {@code r}. An honest response is read after its request was written, so after its message recorded the
 * count: it is never refused. Per message this is one opaque load; per read one atomic increment.
 *
 * <p><b>Late responses.</b> A response to a message that is no longer in flight is late only if a timeout explains
 * it: each timed-out message may be answered once more. A connection that gets more such responses than it had
 * timeouts got one no request asked for ({@link #late} says false). These two counts move off the hot path only
 * (a timeout, a response that found no message), so they are plain atomics.
 */
final class AnswerLedger {

    /** The read number of a response reported outside any read: it may complete every message in flight. */
    static final long OUTSIDE_A_READ = Long.MAX_VALUE;

    private static final VarHandle READS;

    static {
        try {
            READS = MethodHandles.lookup().findVarHandle(AnswerLedger.class, "reads", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Reads begun on this connection (all its transport connections: a FIFO reopen may read two at once). */
    @SuppressWarnings("unused") // through READS
    private long reads;
    /** Messages that ended by timeout, plus, while a FIFO reopen is under way, the window it may still fail. */
    private final AtomicLong timeouts = new AtomicLong();
    private final AtomicLong late = new AtomicLong();

    /** A read begins: its number, greater than the count every message sent before it recorded. */
    long readBegins() {
        return (long) READS.getAndAdd(this, 1L) + 1;
    }

    /** What a message records before it is published: reads begun so far. */
    long readsBegun() {
        return (long) READS.getOpaque(this);
    }

    /** Whether a response of read {@code read} may complete a message that recorded {@code readsBefore}. */
    static boolean sentBefore(long readsBefore, long read) {
        return readsBefore < read;
    }

    /**
     * {@code n} messages end (or may end) by timeout. Counted before the slot is freed, so a response that finds it
     * freed also finds it counted; a negative {@code n} takes back what did not end so.
     */
    void timeouts(long n) {
        timeouts.addAndGet(n);
    }

    /**
     * A response to a message no longer in flight: true if a timeout explains it (a late response, counted), false
     * if this connection has now had more such responses than timeouts (not counted: no request asked for it).
     */
    boolean late() {
        if (late.incrementAndGet() <= timeouts.get()) {
            return true;
        }
        late.decrementAndGet();
        return false;
    }
}
