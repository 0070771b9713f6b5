package io.nbench.transport.netty;

import io.nbench.protocol.RequestTemplate;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;

/**
 * An event loop's reusable batch buffers, shared by its client connections, each holding copies of a
 * request one after the other, so that gathering a request into a batch only copies in its connection's
 * first bytes and stamps its id.
 *
 * <p>Why reuse: every request is a template with its id stamped in, yet a fresh batch buffer per read
 * batch had each request copied into it whole (the copy was 2.4 % of the netty client's I/O thread at 50
 * connections x window 16 x 1 KiB), and its first touch of the freshly allocated buffer was a cache miss
 * (Netty's accessibility check reading its reference count: 3.8 %). Measured on Netty's EmbeddedChannel
 * (no kernel, no engine), the connection's own CPU per message fell from 56 to 28.5 ns at 1 KiB and from
 * 202 to 58 ns at 5 KiB.
 *
 * <p>Why per event loop rather than per connection: requests of one size differ between connections only
 * in their first {@link RequestTemplate#connectionHeadLength()} bytes, and buffers per connection (up to
 * four of 32 KiB each) made the kernel copy every batch from memory no cache holds at 200 connections, as
 * the nio client's own buffers did (see its {@code SharedWriteBuffer}; the C reference client writes from
 * one buffer too). A buffer prepared by one connection serves the next once its head and id are written.
 *
 * <p>A buffer is written whole as itself, retained: no slice or duplicate object per batch. It is free
 * again once the channel has released it, its reference count back to this set's own single
 * reference; on loopback that happens as the batch's flush completes, so one or two buffers per loop
 * are enough in steady state. A batch that finds every buffer still queued in channels (peers not
 * reading) gets none, and its caller falls back to a fresh buffer with the requests copied in.
 *
 * <p>Event loop only; one batch at a time, owned by the connection whose read batch began it (a loop
 * runs one channel's reads and their read-complete before the next channel's).
 */
final class PreparedBatches {

    /** Enough for a batch being gathered while earlier ones still wait in outbound buffers. */
    static final int BUFFERS = 8;
    /** A buffer's largest size: a window of 16 requests of 1 KiB, or a few larger ones. */
    static final int CAPACITY = 32 * 1024;

    private final ByteBuf[] buffers = new ByteBuf[BUFFERS];
    /** Per buffer: how many of its first bytes hold whole copies of {@link #preparedFor}'s request. */
    private final int[] prepared = new int[BUFFERS];
    /** The template whose tail the copies hold; any template with the same tail may use them. */
    private RequestTemplate preparedFor;
    private int maxBytes;
    /** The batch being filled: its buffer, owner and template; -1 between batches. */
    private int current = -1;
    private Object owner;
    private byte[] request;
    private int head;
    private int[] idOffsets;

    /**
     * Starts {@code owner}'s batch of {@code template}'s requests in a buffer no channel holds, allocating
     * one while fewer than {@link #BUFFERS} exist. False when all are still queued in channels.
     *
     * <p>The buffers come from the pooled allocator whatever {@code netty.allocator} says: they live as
     * long as the client, and Netty's default adaptive allocator is built for short-lived buffers.
     * Holding its memory for long made it rotate its chunks through a shared cache and fall back to new
     * direct buffers for the reads: 11-19 B/msg allocated on the event loop at 50 x 16 x 5 KiB, and more
     * system time, where the pooled allocator's arenas are unaffected (0 B/msg).
     */
    boolean begin(Object owner, RequestTemplate template) {
        if (preparedFor == null || !preparedFor.sameTailAs(template)) {
            release(); // another request size: the copies and the buffers' sizes are the old one's
            preparedFor = template;
            maxBytes = template.wireLength() * Math.max(1, CAPACITY / template.wireLength());
        }
        for (int i = 0; i < BUFFERS; i++) {
            ByteBuf b = buffers[i];
            if (b == null) {
                buffers[i] = PooledByteBufAllocator.DEFAULT.directBuffer(template.wireLength(), maxBytes);
                prepared[i] = 0;
            } else if (b.refCnt() == 1) {
                b.clear();
            } else {
                continue;
            }
            current = i;
            this.owner = owner;
            this.request = template.bytes();
            this.head = template.connectionHeadLength();
            this.idOffsets = template.idOffsets();
            return true;
        }
        return false;
    }

    /** Whether {@code who}'s batch is being filled. */
    boolean activeFor(Object who) {
        return current >= 0 && owner == who;
    }

    /** Adds the request with {@code id} to the batch; false (nothing added) when its buffer is full. */
    boolean add(long id) {
        ByteBuf b = buffers[current];
        int at = b.writerIndex();
        int end = at + request.length;
        if (end > maxBytes) {
            return false;
        }
        if (end <= prepared[current]) {
            b.setBytes(at, request, 0, head); // the connection's own first bytes over another's copy
            b.writerIndex(end);
        } else {
            // A copy not made yet: once per position in the buffer's life, not per batch.
            b.writeBytes(request);
            prepared[current] = end;
        }
        for (int off : idOffsets) {
            b.setLong(at + off, id);
        }
        return true;
    }

    /**
     * Ends the batch: its buffer with one more reference, for the channel to release once written.
     * Null when the batch holds nothing.
     */
    ByteBuf take() {
        ByteBuf b = buffers[current];
        current = -1;
        owner = null;
        return b.isReadable() ? b.retain() : null;
    }

    /** Drops {@code who}'s unfinished batch (its connection closed inside a read): never written. */
    void abandon(Object who) {
        if (activeFor(who)) {
            buffers[current].clear();
            current = -1;
            owner = null;
        }
    }

    /**
     * Drops this set's own references (a channel releases those it still holds as it writes or fails
     * them); the set may be used again and allocates anew.
     */
    void release() {
        current = -1;
        owner = null;
        for (int i = 0; i < BUFFERS; i++) {
            if (buffers[i] != null) {
                buffers[i].release();
                buffers[i] = null;
            }
        }
    }
}
