package io.nbench.client;

import io.nbench.load.RunListener;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code --start-at}: once every connection is open, the first iteration waits for a wall-clock instant, so
 * client hosts given the same instant measure the same windows (for {@code nbench report --merge}). It waits
 * on the engine's coordinator thread, in the listener the engine calls after connecting and before its clock
 * starts; an interrupt (SIGINT) ends the wait within 50 ms.
 */
final class StartAt implements RunListener {

    private final Instant instant;
    private final AtomicBoolean stop;

    StartAt(Instant instant, AtomicBoolean stop) {
        this.instant = instant;
        this.stop = stop;
    }

    @Override
    public void onConnected(int connections) {
        while (!stop.get()) {
            long left = Duration.between(Instant.now(), instant).toNanos(); // Instant.now(): µs on Linux
            if (left <= 0) {
                return;
            }
            LockSupport.parkNanos(Math.min(left, TimeUnit.MILLISECONDS.toNanos(50)));
        }
    }
}
