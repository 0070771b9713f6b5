package io.nbench.server.runtime;

import io.nbench.transport.BusinessPool;
import io.nbench.transport.ResponseTimer;
import io.nbench.transport.ServerRuntime;
import io.nbench.units.Durations;
import java.time.Duration;

/**
 * The server's business runtime from {@code --work}, {@code --work-mode}, {@code --executor-threads} and
 * {@code --executor-queue}: what each request costs and where that cost is paid.
 */
public final class BusinessRuntime implements ServerRuntime, AutoCloseable {

    private final long workNanos;
    private final WorkMode mode;
    private final BusinessExecutor pool;
    /** {@code --work-mode delay}'s timer, null in the other modes. */
    private final DelayTimer timer;

    /**
     * @param work    per-request work, null or zero for none
     * @param pool    the business pool, null to process requests on the I/O threads; must be null with
     *                {@link WorkMode#DELAY}, which holds no thread (the plan refuses both)
     */
    public BusinessRuntime(Duration work, WorkMode mode, BusinessExecutor pool) {
        this.workNanos = work == null ? 0 : work.toNanos();
        this.mode = mode;
        this.pool = pool;
        boolean delay = mode == WorkMode.DELAY && workNanos > 0;
        if (delay && pool != null) {
            throw new IllegalArgumentException("--work-mode delay holds no thread: no business pool to give it");
        }
        this.timer = delay ? new DelayTimer(workNanos) : null;
    }

    @Override
    public void work() {
        if (workNanos <= 0 || timer != null) {
            return; // with the timer, waiting for it is the work, and no thread does it
        }
        if (mode == WorkMode.SPIN) {
            SimulatedWork.spin(workNanos);
        } else {
            SimulatedWork.sleep(workNanos);
        }
    }

    @Override
    public boolean hasWork() {
        return workNanos > 0;
    }

    @Override
    public BusinessPool pool() {
        return pool;
    }

    @Override
    public ResponseTimer timer() {
        return timer;
    }

    /**
     * For the server's start line: "work 1 s sleep on the I/O thread", "work 1 s sleep on the executor
     * (100:200 threads, queue 1000)", "work 1 s delay, completed by a timer (no thread waits)".
     * {@code transportExecutor} names the transport's own executor when a {@code -O} option put the work
     * there, else null.
     */
    public String describe(String transportExecutor) {
        if (timer != null) {
            return "work " + Durations.format(Duration.ofNanos(workNanos)) + " delay, completed by a timer "
                    + "(no thread waits)";
        }
        String where = pool != null ? "on the executor (" + pool.describe() + ")"
                : transportExecutor != null ? "on the transport's executor (" + transportExecutor + ")"
                : "on the I/O thread";
        return (workNanos > 0 ? "work " + Durations.format(Duration.ofNanos(workNanos)) + " " + mode.label() + " "
                : "no work, ") + where;
    }

    /** Stops the pool or the timer: what they hold is never answered (the connections, closed first, count it). */
    @Override
    public void close() {
        if (pool != null) {
            pool.close();
        }
        if (timer != null) {
            timer.close();
        }
    }
}
