package io.nbench.transport;

/**
 * Completes requests later without holding a thread while they wait ({@code --work-mode delay}), as a
 * reactive handler returning {@code Mono.delay(D)} does: see {@link ServerRuntime#timer}. Every request waits
 * the same delay, counted from its {@link #schedule} call.
 */
public interface ResponseTimer {

    /**
     * Runs {@code completion} on the timer's thread once the delay has passed. Returns at once and never blocks
     * the calling (I/O) thread. Once the server is stopping the timer runs nothing more: the request stays
     * unanswered and is counted dropped when its connection closes.
     */
    void schedule(Runnable completion);
}
