package io.nbench.server.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The runtime built from the server's options: the work each mode does, and what the start line says. */
class BusinessRuntimeTest {

    @Test
    void bothThreadModesWorkAtLeastTheTimeAsked() {
        for (WorkMode mode : new WorkMode[] {WorkMode.SLEEP, WorkMode.SPIN}) {
            try (BusinessRuntime runtime = new BusinessRuntime(Duration.ofMillis(3), mode, null)) {
                assertTrue(runtime.hasWork());
                long start = System.nanoTime();
                runtime.work();
                long took = System.nanoTime() - start;
                assertTrue(took >= 3_000_000, mode + " took " + took + " ns");
            }
        }
    }

    /** Delay holds no thread: its work returns at once, and its timer, not a pool, completes the response. */
    @Test
    void delayIsATimerNotWork() {
        try (BusinessRuntime runtime = new BusinessRuntime(Duration.ofHours(1), WorkMode.DELAY, null)) {
            assertTrue(runtime.hasWork());
            runtime.work(); // would block an hour if it slept
            assertNull(runtime.pool());
            assertNotNull(runtime.timer());
            assertTrue(runtime.answersLater());
            assertEquals("work 60 min delay, completed by a timer (no thread waits)", runtime.describe(null));
        }
        try (BusinessRuntime runtime = new BusinessRuntime(null, WorkMode.DELAY, null)) {
            assertNull(runtime.timer(), "no delay, no timer");
            assertFalse(runtime.answersLater());
        }
        assertThrows(IllegalArgumentException.class, () -> new BusinessRuntime(Duration.ofSeconds(1), WorkMode.DELAY,
                new BusinessExecutor(1, 1, 1)));
    }

    @Test
    void noWorkReturnsAtOnceAndSaysWhereRequestsRun() {
        try (BusinessRuntime runtime = new BusinessRuntime(null, WorkMode.SLEEP,
                new BusinessExecutor(100, 200, 1000))) {
            assertFalse(runtime.hasWork());
            assertEquals("no work, on the executor (100:200 threads, queue 1000)", runtime.describe(null));
        }
        try (BusinessRuntime runtime = new BusinessRuntime(Duration.ofSeconds(1), WorkMode.SLEEP, null)) {
            assertNull(runtime.pool());
            assertEquals("work 1 s sleep on the I/O thread", runtime.describe(null));
            assertEquals("work 1 s sleep on the transport's executor (DefaultEventExecutorGroup(4))",
                    runtime.describe("DefaultEventExecutorGroup(4)"));
        }
        try (BusinessRuntime runtime = new BusinessRuntime(Duration.ofNanos(50_000), WorkMode.SPIN,
                new BusinessExecutor(4, 4, 64))) {
            assertEquals("work 50 µs spin on the executor (4 threads, queue 64)", runtime.describe(null));
        }
        try (BusinessRuntime runtime = new BusinessRuntime(null, WorkMode.SLEEP, new BusinessExecutor(1, 1, 1))) {
            assertEquals("no work, on the executor (1 thread, queue 1)", runtime.describe(null));
        }
    }
}
