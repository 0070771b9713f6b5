package io.nbench.load;

import java.util.Arrays;

/**
 * The requests an HTTP server never answered because it closed their connection cleanly first: after a response
 * that said {@code Connection: close} (RFC 9112 9.6: it processes no request after that one), or unannounced
 * after a complete response (9.3.1: a client may retry). They were written and counted as sent once; they stay in
 * their slots, holding their permits, and go out again, oldest first, on the connection that replaces the closed
 * one. So each is counted once, answered or not, and never as an error; the iteration that sent it waits for it.
 *
 * <p>Per connection, used only by the thread that replaces it, once per replacement, never per message: the ids
 * are gathered into a table sized once for the connection's slots.
 */
final class ClosedConnectionResends {

    private final long[] ids;
    private int count;

    ClosedConnectionResends(int capacity) {
        this.ids = new long[capacity];
    }

    /**
     * Gathers the messages in flight that went out on a connection generation other than {@code current} (the
     * closed one's), oldest first: their responses on the new connection are matched first-in first-out, so they
     * must go out in the order the server would have answered them.
     */
    int collect(InFlightSlots slots, int[] slotGen, int current) {
        int n = 0;
        for (int i = 0; i < ids.length; i++) {
            long v = slots.idAt(i);
            if (v > 0 && slotGen[i] != current) {
                ids[n++] = v;
            }
        }
        Arrays.sort(ids, 0, n); // the sequence number is the id's high bits: id order is send order
        count = n;
        return n;
    }

    /** The {@code k}-th oldest message {@link #collect} gathered. */
    long id(int k) {
        if (k >= count) {
            throw new IndexOutOfBoundsException(k + " of " + count);
        }
        return ids[k];
    }
}
