package io.nbench.load;

import java.util.Locale;

/**
 * Who issues the next send when a permit comes back.
 * <ul>
 * <li>{@code threads}: the model of hand-written thread-per-connection benchmarks. Sender threads block on their connection's semaphore; the I/O
 *     thread that completes a message releases a permit and wakes the sender (one cross-thread wake-up
 *     per message).</li>
 * <li>{@code io}: the I/O thread that completes a message sends that connection's next one itself, so
 *     the steady state has no thread hand-off. Same permits, same quotas, same latency definition.</li>
 * </ul>
 */
public enum Driver {
    THREADS, IO;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
