package io.nbench.server.runtime;

import java.util.concurrent.locks.LockSupport;

/** The simulated per-request work of {@code --work}: at least the given wall time on the calling thread. */
public final class SimulatedWork {

    private SimulatedWork() {
    }

    /**
     * Blocks the calling thread for at least {@code nanos}, as a handler waiting on I/O would. parkNanos may
     * return early (spuriously, or on interrupt), so it parks again until the deadline; an interrupt (the
     * server stopping) ends the work at once.
     */
    public static void sleep(long nanos) {
        long deadline = System.nanoTime() + nanos;
        long left = nanos;
        while (left > 0 && !Thread.currentThread().isInterrupted()) {
            LockSupport.parkNanos(left);
            left = deadline - System.nanoTime();
        }
    }

    /**
     * Keeps the calling thread busy for at least {@code nanos} of wall time. It watches the clock rather
     * than running a loop count calibrated once: a count's duration changes with the JIT, the core's
     * frequency and the other threads sharing the core, so 50us would not stay 50us; polling System.nanoTime
     * (some 20-30 ns a read) until the deadline is exact to within one read whatever the machine does.
     */
    public static void spin(long nanos) {
        long deadline = System.nanoTime() + nanos;
        while (deadline - System.nanoTime() > 0) {
            Thread.onSpinWait();
        }
    }
}
