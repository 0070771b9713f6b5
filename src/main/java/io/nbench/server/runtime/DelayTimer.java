package io.nbench.server.runtime;

import io.nbench.transport.ResponseTimer;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The timer of {@code --work-mode delay}: one thread that completes each request's response a fixed delay
 * after it was handed over, so that no thread waits while a request does ("a response completed later", as a
 * reactive handler's {@code Mono.delay(D)}). Its thread starts with the first request.
 *
 * <p>Why a {@link ScheduledThreadPoolExecutor} of one thread rather than Netty's HashedWheelTimer: accuracy at
 * 1 ms and cost at 100k pending. Its thread parks until the earliest deadline exactly (tens of microseconds
 * late on Linux) and not at all while nothing is pending; a wheel fires up to one tick late and wakes every
 * tick even when idle, so 1 ms accuracy would cost a thousand wake-ups a second on the machine being
 * measured. Its queue is a binary heap, and since every request waits the same delay each new deadline is
 * the latest: an insertion stops at the leaf it starts from (O(1)), a removal costs about 17 comparisons
 * with 100k pending. What it costs: an object and the queue's lock per request, as the business pool's
 * queue does.
 */
final class DelayTimer implements ResponseTimer, AutoCloseable {

    private final long delayNanos;
    private final ScheduledThreadPoolExecutor executor;

    DelayTimer(long delayNanos) {
        if (delayNanos <= 0) {
            throw new IllegalArgumentException("delay " + delayNanos + " ns");
        }
        this.delayNanos = delayNanos;
        this.executor = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "nbench-delay-timer");
            t.setDaemon(true);
            return t;
        }) {
            @Override
            protected void afterExecute(Runnable task, Throwable thrown) {
                reportFailure(task);
            }
        };
    }

    @Override
    public void schedule(Runnable completion) {
        try {
            executor.schedule(completion, delayNanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            // Stopped: the server is stopping, and the request is dropped with its connection.
        }
    }

    /**
     * The connection's loop keeps the deadline: no timer thread wakes, and nothing is scheduled once the timer is
     * stopped, as {@link #schedule}. What is scheduled already is the connection's: its close discards it
     * (the request counted dropped), and the loop's shutdown cancels it.
     */
    @Override
    public ResponseTimer on(ScheduledExecutorService loop) {
        return completion -> {
            if (executor.isShutdown()) {
                return; // stopping: the request stays unanswered and is dropped with its connection
            }
            try {
                loop.schedule(completion, delayNanos, TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException e) {
                // the loop is shutting down: the connection closes with it and counts the request dropped
            }
        };
    }

    /**
     * A scheduled task keeps what it throws in its future, where nobody would look: hand it to the thread's
     * handler instead, as a pool thread's task failing would be (a bug in a transport's write path).
     */
    private static void reportFailure(Runnable task) {
        if (task instanceof Future<?> done && done.isDone()) {
            try {
                done.get();
            } catch (ExecutionException e) {
                Thread t = Thread.currentThread();
                t.getUncaughtExceptionHandler().uncaughtException(t, e.getCause());
            } catch (CancellationException e) {
                // cancelled by the stop: nothing failed
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // the stop: keep its interrupt for the thread's loop
            }
        }
    }

    /** Stops at once: responses not completed yet are never completed (their connections are closed and count them). */
    @Override
    public void close() {
        BusinessExecutor.stopNow(executor);
    }
}
