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
 * it: each timed-out message may be answered once more. With ids (framed, stamped echo) each slot remembers the id
 * of the last message in it that timed out and was not answered since, so a second answer to a message that never
 * timed out is refused at once ({@link #lateAnswer}); once a slot's record was overwritten before its answer came,
 * and without ids (a reply on a first-in first-out connection replaced after a timeout), the rule is the count: a
 * connection that gets more such responses than it had timeouts got one no request asked for ({@link #late}). All
 * of this moves off the hot path only (a timeout, a response that found no message), so it uses plain atomics.
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
    /** With ids: per slot, the id of the last message in it that timed out and was not answered since (0: none). */
    private final long[] timedOut;
    /** Timed-out ids whose record was overwritten before their answer came: from then on the count decides. */
    private final AtomicLong forgotten = new AtomicLong();
    private static final VarHandle IDS = MethodHandles.arrayElementVarHandle(long[].class);

    /** {@code slots}: the connection's slot count, when its responses carry ids (else 0). */
    AnswerLedger(int slots) {
        this.timedOut = new long[slots];
    }

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
     * With ids: message {@code id} in {@code slot} is about to be ended by timeout (before its slot is freed, so that
     * its late answer, finding the slot freed, finds the record).
     */
    void timingOut(int slot, long id) {
        timeouts(1);
        if ((long) IDS.getAndSet(timedOut, slot, id) != 0) {
            forgotten.incrementAndGet();
        }
    }

    /** What {@link #timingOut} recorded did not happen: the message's answer freed its slot first. */
    void answeredFirst(int slot, long id) {
        timeouts(-1);
        IDS.compareAndSet(timedOut, slot, id, 0L);
    }

    /**
     * With ids: a response to message {@code id} of {@code slot}, which is no longer in flight. True if it is the
     * late answer of a timed-out message (counted), false if no request asked for it: the message was answered
     * already (or, once a record was forgotten, the connection has had more such responses than timeouts).
     */
    boolean lateAnswer(int slot, long id) {
        if (IDS.compareAndSet(timedOut, slot, id, 0L)) {
            late.incrementAndGet();
            return true;
        }
        return forgotten.get() > 0 && late();
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
