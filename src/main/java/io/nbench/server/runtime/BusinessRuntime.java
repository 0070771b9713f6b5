package io.nbench.server.runtime;

import io.nbench.transport.BusinessPool;
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

    /**
     * @param work    per-request work, null or zero for none
     * @param pool    the business pool, null to process requests on the I/O threads
     */
    public BusinessRuntime(Duration work, WorkMode mode, BusinessExecutor pool) {
        this.workNanos = work == null ? 0 : work.toNanos();
        this.mode = mode;
        this.pool = pool;
    }

    @Override
    public void work() {
        if (workNanos <= 0) {
            return;
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

    /**
     * For the server's start line: "work 1 s sleep on the I/O thread", "work 1 s sleep on the executor
     * (100:200 threads, queue 1000)". {@code transportExecutor} names the transport's own executor when a
     * {@code -O} option put the work there, else null.
     */
    public String describe(String transportExecutor) {
        String where = pool != null ? "on the executor (" + pool.describe() + ")"
                : transportExecutor != null ? "on the transport's executor (" + transportExecutor + ")"
                : "on the I/O thread";
        return (workNanos > 0 ? "work " + Durations.format(Duration.ofNanos(workNanos)) + " " + mode.label() + " "
                : "no work, ") + where;
    }

    @Override
    public void close() {
        if (pool != null) {
            pool.close();
        }
    }
}
