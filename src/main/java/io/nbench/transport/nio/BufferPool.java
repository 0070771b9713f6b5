package io.nbench.transport.nio;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * The connection buffers a selector loop keeps for its next connections. A direct buffer is freed only
 * when a garbage collection runs its cleaner, and the C allocator then keeps the memory: a server that
 * allocated two fresh direct buffers per connection grew its RSS by 200 MiB in a minute of connection
 * churn (394 to 591 MiB, 24,574 connections) while its heap held 4 MiB. Reusing them bounds that at
 * what the open connections use plus {@link #KEEP} free buffers per size.
 *
 * <p>Only the loop's own thread takes and gives: no lock. A buffer given back may hold the bytes of the
 * connection that used it; every user writes before it reads (the parser writes its zero padding), so
 * none of it is ever sent.
 */
final class BufferPool {

    /** Free buffers kept per capacity: with the default 64 KiB buffers, at most 8 MiB per loop and size. */
    static final int KEEP = 128;

    private final NioConfig config;
    private final Map<Integer, ArrayDeque<ByteBuffer>> free = new HashMap<>();

    BufferPool(NioConfig config) {
        this.config = config;
    }

    /** A cleared buffer of exactly {@code capacity} bytes, reused when one is free. */
    ByteBuffer take(int capacity) {
        ArrayDeque<ByteBuffer> q = free.get(capacity);
        ByteBuffer b = q == null ? null : q.pollLast();
        if (b == null) {
            return config.allocate(capacity);
        }
        b.clear();
        return b;
    }

    /** Keeps {@code b} for a later connection, or lets it go when enough of its size are free. */
    void give(ByteBuffer b) {
        ArrayDeque<ByteBuffer> q = free.computeIfAbsent(b.capacity(), c -> new ArrayDeque<>());
        if (q.size() < KEEP) {
            q.addLast(b);
        }
    }

    /** Free buffers of {@code capacity} bytes held now. */
    int free(int capacity) {
        ArrayDeque<ByteBuffer> q = free.get(capacity);
        return q == null ? 0 : q.size();
    }
}
