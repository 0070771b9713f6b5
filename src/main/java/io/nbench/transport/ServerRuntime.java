package io.nbench.transport;

/**
 * The server's business runtime as a transport sees it: the simulated per-request work ({@code --work})
 * and where requests are processed, on the I/O thread or on nbench's business pool
 * ({@code --executor-threads}), or completed later by a timer ({@code --work-mode delay}). Implemented
 * outside the transports so that every transport does the same work on the same pool, and rejections and
 * queue wait compare fairly.
 */
public interface ServerRuntime {

    /**
     * Does one request's simulated work on the calling thread; returns at once when there is none, and with
     * a {@link #timer}, whose wait is the work.
     */
    void work();

    /** Whether {@link #work} does anything, so the I/O path can skip the call when it does not. */
    boolean hasWork();

    /** nbench's business pool, or null when requests are processed on the I/O thread that decoded them. */
    BusinessPool pool();

    /**
     * The timer that completes each request's response {@code --work} later without any thread waiting
     * ({@code --work-mode delay}), or null. Never given together with a {@link #pool}.
     */
    default ResponseTimer timer() {
        return null;
    }

    /**
     * Whether responses leave later from another thread (a pool thread, or the timer's), not from the I/O
     * thread that decoded their request: then the transport builds each response whole and hands it to the
     * connection's pipeline, and its own executor option, if any, is not used.
     */
    default boolean answersLater() {
        return pool() != null || timer() != null;
    }

    /**
     * What answers requests when {@link #answersLater}, for a transport's effective configuration, where its
     * own executor option is then "off (...)".
     */
    default String answeredLaterBy() {
        return pool() != null ? "nbench's --executor-threads pool runs the work"
                : "--work-mode delay's timer completes the responses";
    }

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
