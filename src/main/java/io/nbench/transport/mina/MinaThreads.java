package io.nbench.transport.mina;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Executors for MINA's acceptor, connector and processor threads. MINA creates non-daemon cached pools
 * when none is given and, for a processor pool, does not wait for them on dispose; passing our own lets
 * nbench name the threads, keep them daemon, and wait until every one has ended on close.
 */
final class MinaThreads {

    private MinaThreads() {
    }

    static ExecutorService pool(String prefix) {
        AtomicInteger n = new AtomicInteger();
        ThreadFactory factory = r -> {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
        return Executors.newCachedThreadPool(factory);
    }

    /** Stops the pool and waits (bounded) for its threads to finish. */
    static void shutdown(ExecutorService pool) {
        pool.shutdownNow();
        try {
            pool.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
