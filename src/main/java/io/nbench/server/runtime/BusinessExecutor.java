package io.nbench.server.runtime;

import io.nbench.transport.BusinessPool;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * nbench's business pool ({@code --executor-threads CORE:MAX --executor-queue N}): a plain
 * {@link ThreadPoolExecutor} over a bounded {@link ArrayBlockingQueue}, so it behaves exactly like the
 * executors servers are built on: it starts a thread per task up to CORE, then queues, grows past CORE
 * towards MAX only when the queue is full, and refuses a task when the queue is full and MAX threads
 * are busy. Threads above CORE end after 60 s idle, as with the JDK's and Spring's defaults.
 */
public final class BusinessExecutor implements BusinessPool, AutoCloseable {

    /** Thrown by the rejection handler without a stack trace: a full pool is an expected, frequent event. */
    private static final RejectedExecutionException FULL = new RejectedExecutionException("business pool full") {
        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    };

    private final ThreadPoolExecutor executor;
    private final int core;
    private final int max;
    private final int queue;

    public BusinessExecutor(int core, int max, int queue) {
        if (core < 1 || max < core || queue < 1) {
            throw new IllegalArgumentException("pool " + core + ":" + max + " queue " + queue);
        }
        this.core = core;
        this.max = max;
        this.queue = queue;
        AtomicInteger number = new AtomicInteger();
        ThreadFactory threads = r -> {
            Thread t = new Thread(r, "nbench-business-" + number.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
        this.executor = new ThreadPoolExecutor(core, max, 60, TimeUnit.SECONDS, new ArrayBlockingQueue<>(queue),
                threads, (task, pool) -> {
                    throw FULL;
                });
    }

    @Override
    public boolean offer(Runnable task) {
        try {
            executor.execute(task);
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    /** Threads running now (for tests and the log). */
    public int poolSize() {
        return executor.getPoolSize();
    }

    /** "100:200 threads, queue 1000". */
    public String describe() {
        return (core == max ? String.valueOf(core) : core + ":" + max) + (max == 1 ? " thread" : " threads")
                + ", queue " + queue;
    }

    /** Stops the pool: queued requests are dropped and running work is interrupted (its connections are closed). */
    @Override
    public void close() {
        stopNow(executor);
    }

    /**
     * Stops {@code executor} without running what it holds, and waits for its threads (5 s at most: spin work
     * cannot be interrupted and runs to its end).
     */
    static void stopNow(ExecutorService executor) {
        executor.shutdownNow();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
