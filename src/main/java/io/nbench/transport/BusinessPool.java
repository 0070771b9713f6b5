package io.nbench.transport;

/** A bounded pool of business threads that requests are handed to (see {@link ServerRuntime#pool}). */
public interface BusinessPool {

    /**
     * Runs {@code task} on a pool thread. Returns false, and never runs it, when the pool is full: its
     * queue is full and every thread it may have is busy. Never blocks the calling (I/O) thread.
     */
    boolean offer(Runnable task);
}
