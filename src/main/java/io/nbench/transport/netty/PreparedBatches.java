package io.nbench.transport.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;

/**
 * A connection's reusable batch buffers, each holding copies of the request one after the other, so
 * that gathering a request into a batch only stamps its id into a copy already there.
 *
 * <p>Why: every request is the template with its id stamped in, yet a fresh batch buffer per read batch
 * had each request copied into it whole (the copy was 2.4 % of the netty client's I/O thread at 50
 * connections x window 16 x 1 KiB), and its first touch of the freshly allocated buffer was a cache miss
 * (Netty's accessibility check reading its reference count: 3.8 %). The C reference client and the
 * nio client write from a prepared buffer in the same way. Measured on Netty's EmbeddedChannel (no
 * kernel, no engine), the connection's own CPU per message fell from 56 to 28.5 ns at 1 KiB and from
 * 202 to 58 ns at 5 KiB.
 *
 * <p>A buffer is written whole as itself, retained: no slice or duplicate object per batch. It is free
 * again once the channel has released it, its reference count back to this set's own single
 * reference; on loopback that happens as the batch's flush completes, so one buffer per connection is
 * enough in steady state. A batch that finds every buffer still queued in the channel (the peer not
 * reading) gets none, and its caller falls back to a fresh buffer with the requests copied in.
 *
 * <p>Event loop only. A buffer grows to the largest batch written from it (at most
 * {@code maxCopies} requests), so a connection with one request in flight holds one request's copy.
 */
final class PreparedBatches {

    /** Enough for a batch being gathered while earlier ones still wait in the outbound buffer. */
    static final int BUFFERS = 4;

    private final byte[] request;
    private final int[] idOffsets;
    private final int maxBytes;
    private final ByteBuf[] buffers = new ByteBuf[BUFFERS];
    /** Per buffer: how many of its first bytes hold whole copies of the request. */
    private final int[] prepared = new int[BUFFERS];
    /** The buffer being filled, or -1 between batches. */
    private int current = -1;

    PreparedBatches(byte[] request, int[] idOffsets, int maxCopies) {
        this.request = request;
        this.idOffsets = idOffsets;
        this.maxBytes = request.length * Math.max(1, maxCopies);
    }

    /**
     * Starts a batch in a buffer the channel no longer holds, allocating one while fewer than
     * {@link #BUFFERS} exist. False when all are still queued in the channel.
     *
     * <p>The buffers come from the pooled allocator whatever {@code netty.allocator} says: they live as
     * long as the connection, and Netty's default adaptive allocator is built for short-lived buffers.
     * Holding its memory for long made it rotate its chunks through a shared cache and fall back to new
     * direct buffers for the reads: 11-19 B/msg allocated on the event loop at 50 x 16 x 5 KiB, and more
     * system time, where the pooled allocator's arenas are unaffected (0 B/msg).
     */
    boolean begin() {
        for (int i = 0; i < BUFFERS; i++) {
            ByteBuf b = buffers[i];
            if (b == null) {
                buffers[i] = PooledByteBufAllocator.DEFAULT.directBuffer(request.length, maxBytes);
                prepared[i] = 0;
                current = i;
                return true;
            }
            if (b.refCnt() == 1) {
                b.clear();
                current = i;
                return true;
            }
        }
        return false;
    }

    /** Whether a batch is being filled. */
    boolean active() {
        return current >= 0;
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
        return b.isReadable() ? b.retain() : null;
    }

    /** Drops this set's own references (the channel releases those it still holds as it fails them). */
    void release() {
        current = -1;
        for (int i = 0; i < BUFFERS; i++) {
            if (buffers[i] != null) {
                buffers[i].release();
                buffers[i] = null;
            }
        }
    }
}
