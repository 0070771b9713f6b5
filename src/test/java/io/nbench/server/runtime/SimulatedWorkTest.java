package io.nbench.server.runtime;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Simulated work lasts at least the time asked, in wall time (no upper bound: the machine is shared). */
class SimulatedWorkTest {

    @Test
    void spinLastsAtLeastTheTimeAsked() {
        for (long micros : new long[] {1, 50, 200, 2_000}) {
            long nanos = TimeUnit.MICROSECONDS.toNanos(micros);
            for (int i = 0; i < 20; i++) {
                long start = System.nanoTime();
                SimulatedWork.spin(nanos);
                long took = System.nanoTime() - start;
                assertTrue(took >= nanos, micros + " us of spin took " + took + " ns");
            }
        }
    }

    @Test
    void sleepLastsAtLeastTheTimeAsked() {
        for (long micros : new long[] {1, 50, 2_000}) {
            long nanos = TimeUnit.MICROSECONDS.toNanos(micros);
            long start = System.nanoTime();
            SimulatedWork.sleep(nanos);
            long took = System.nanoTime() - start;
            assertTrue(took >= nanos, micros + " us of sleep took " + took + " ns");
        }
    }

    @Test
    void sleepEndsAtOnceWhenTheServerStops() {
        Thread.currentThread().interrupt();
        try {
            long start = System.nanoTime();
            SimulatedWork.sleep(TimeUnit.SECONDS.toNanos(30));
            assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(30), "interrupted work ends");
        } finally {
            Thread.interrupted();
        }
    }

    /** CORE:MAX grows past CORE only when the queue is full, as Java's ThreadPoolExecutor, then rejects. */
    @Test
    void poolGrowsPastCoreOnlyWhenItsQueueIsFull() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Runnable blocked = () -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        try (BusinessExecutor pool = new BusinessExecutor(1, 2, 2)) {
            assertTrue(pool.offer(blocked), "first: a core thread");
            assertTrue(pool.offer(blocked) && pool.offer(blocked), "second and third: queued");
            assertTrue(pool.poolSize() == 1, "no thread over CORE while the queue has room: " + pool.poolSize());
            assertTrue(pool.offer(blocked), "fourth: queue full, a thread over CORE");
            assertTrue(pool.poolSize() == 2, "grown to MAX: " + pool.poolSize());
            assertTrue(!pool.offer(blocked), "fifth: queue full and MAX threads busy, rejected");
            release.countDown();
        }
    }
}
