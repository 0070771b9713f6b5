package io.nbench.transport;

import java.util.concurrent.ScheduledExecutorService;

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

    /**
     * This timer's delay, its completions run on {@code loop} instead: the event loop of a connection whose
     * transport wakes for its loop's own deadlines precisely (netty on epoll: a timerfd). The response is then
     * completed and written on the connection's I/O thread, without the timer thread's wake-up and the
     * hand-over of the write to the loop, a second wake-up (measured on 2 busy cores, a 1 ms delay at 2,000 a
     * second: 85-108 µs late at p50 through the timer's thread, 23-48 µs on the loop). By default, this timer.
     */
    default ResponseTimer on(ScheduledExecutorService loop) {
        return this;
    }
}
