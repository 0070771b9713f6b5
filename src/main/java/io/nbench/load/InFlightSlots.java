package io.nbench.load;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The table of one connection's messages in flight, and the protocol by which threads share it without
 * a lock. A power-of-two number of slots, at least twice the window; each slot holds the id of the message
 * occupying it ({@link #FREE} when empty) and, in parallel columns, its send time, its intended send time
 * (open loop), the sender waiting for it (batch mode), and the connection generation it went out on and the reads
 * begun before it (first-in first-out matching).
 *
 * <p>Ids: the slot index is the low {@link #bits} bits of the id, so a response finds its slot without
 * searching; the rest is a per-connection sequence number, so an id is never reused during a run.
 *
 * <p>The protocol, per slot:
 * <ol>
 * <li><b>Claim</b> (the sending thread, holding a permit): {@link #claim} moves a free slot to
 *     {@link #CLAIMED} with a compare-and-set. Only the claimer touches the slot now; it writes the
 *     columns (send time, ...) with plain stores.</li>
 * <li><b>Publish</b> (the same thread, before the message is handed to the transport): {@link #publish}
 *     stores the id with release semantics, so whoever reads the id with {@link #idAt} (acquire) also
 *     sees the columns written before it.</li>
 * <li><b>Complete</b> (whichever thread gets there first: the I/O thread with the response or the write
 *     event, the watchdog on timeout, the thread that sees the connection closed): read the id with
 *     {@link #idAt}, read the columns, then {@link #release} moves the slot from that id back to FREE with a
 *     compare-and-set. Exactly one thread wins; only the winner counts the message, records its latency
 *     and returns its permit. The columns are read before the release because, once free, the slot may be
 *     claimed again at once.</li>
 * <li><b>Timeout</b>: the watchdog releases a slot whose send time is older than the timeout, as above,
 *     and counts a timeout error.</li>
 * <li><b>Late response</b>: a response whose message already timed out finds its slot free or holding a
 *     newer id; its {@link #release} (or the id check before it) fails, and it is discarded as late:
 *     never credited to the message that reused the slot. Late only while a timeout explains it
 *     ({@link AnswerLedger}); otherwise no request asked for it.</li>
 * </ol>
 *
 * <p>Nothing here allocates or blocks: a claim scans at most every slot once (and finds one at once while
 * the window is respected), every other step is one atomic operation on one array element.
 */
final class InFlightSlots {

    /** An empty slot. Ids are positive: the sequence starts at 1. */
    static final long FREE = 0;
    /** A slot being filled by its claimer: not yet a message, matched by no id. */
    static final long CLAIMED = -2;
    private static final VarHandle IDS = MethodHandles.arrayElementVarHandle(long[].class);

    /** Bits of an id that are its slot index. */
    final int bits;
    /** {@code id & mask} is the id's slot. */
    final int mask;
    private final long[] ids;
    /** When each message was sent (the run clock). Written by the claimer, read by the completer. */
    final long[] start;
    /** Open loop only (else null): when each message was meant to be sent. */
    final long[] intended;
    /** Batch mode only (else null): the sender each message belongs to, told when its message is done. */
    final Sender[] owner;
    /** FIFO echo only (else null): the connection generation each message went out on. */
    final int[] generation;
    /**
     * First-in first-out only (else null): how many reads of its connection had begun when each message went out
     * ({@link AnswerLedger}): a response may complete only a message sent before its read began.
     */
    final long[] readsBefore;

    InFlightSlots(int window, boolean openLoop, boolean batch, boolean fifo) {
        int capacity = Integer.highestOneBit(Math.max(2, window * 2 - 1)) << 1;
        this.bits = Integer.numberOfTrailingZeros(capacity);
        this.mask = capacity - 1;
        this.ids = new long[capacity];
        this.start = new long[capacity];
        this.intended = openLoop ? new long[capacity] : null;
        this.owner = batch ? new Sender[capacity] : null;
        this.generation = fifo ? new int[capacity] : null;
        this.readsBefore = fifo ? new long[capacity] : null;
    }

    int capacity() {
        return mask + 1;
    }

    /** The id of the message with sequence number {@code seq} in {@code slot}. */
    long id(long seq, int slot) {
        return (seq << bits) | slot;
    }

    /**
     * Claims a free slot, searching from {@code from}'s slot on; -1 if none is free, which means more
     * messages are in flight than the window allows.
     */
    int claim(int from) {
        for (int k = 0; k <= mask; k++) {
            int i = (from + k) & mask;
            if (IDS.compareAndSet(ids, i, FREE, CLAIMED)) {
                return i;
            }
        }
        return -1;
    }

    /** Makes the claimed {@code slot} the message {@code id}, with everything written to its columns. */
    void publish(int slot, long id) {
        IDS.setRelease(ids, slot, id);
    }

    /** The id in {@code slot} (FREE, CLAIMED or a message's id); its columns are visible once it is an id. */
    long idAt(int slot) {
        return (long) IDS.getAcquire(ids, slot);
    }

    /** Ends message {@code id}: true for the one thread that frees its slot, false if it had ended already. */
    boolean release(int slot, long id) {
        return IDS.compareAndSet(ids, slot, id, FREE);
    }
}
