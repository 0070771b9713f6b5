package io.nbench.transport;

/**
 * The server's business runtime as a transport sees it: the simulated per-request work ({@code --work})
 * and where requests are processed, on the I/O thread or on nbench's business pool
 * ({@code --executor-threads}). Implemented outside the transports so that every transport does the same
 * work on the same pool, and rejections and queue wait compare fairly.
 */
public interface ServerRuntime {

    /** Does one request's simulated work on the calling thread; returns at once when there is none. */
    void work();

    /** Whether {@link #work} does anything, so the I/O path can skip the call when it does not. */
    boolean hasWork();

    /** nbench's business pool, or null when requests are processed on the I/O thread that decoded them. */
    BusinessPool pool();

    /** No work, no pool: every request answered at once on its I/O thread. */
    ServerRuntime INLINE = new ServerRuntime() {
        @Override
        public void work() {
        }

        @Override
        public boolean hasWork() {
            return false;
        }

        @Override
        public BusinessPool pool() {
            return null;
        }
    };
}
