package io.nbench.server;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Child JVMs ({@code nbench run}'s servers, {@code --forks}) never outlive this one, and are stopped the way
 * a user would stop them: SIGTERM first, so a server prints its metrics and a client prints and writes its
 * partial results, SIGKILL only when it has not ended after a grace period.
 */
public final class ChildProcesses {

    private ChildProcesses() {
    }

    /** Registers the shutdown hook that stops {@code p} when this JVM ends; give it to {@link #forget}. */
    public static Thread stopWhenThisJvmEnds(Process p, Duration grace, String name) {
        Thread hook = new Thread(() -> stop(p, grace), name);
        Runtime.getRuntime().addShutdownHook(hook);
        return hook;
    }

    /** The child has ended: its hook is no longer needed. */
    public static void forget(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs anyway and finds the child gone
        }
    }

    /** SIGTERM, then SIGKILL after {@code grace}. {@code Process.destroy()} would also close our end of its output. */
    public static void stop(Process p, Duration grace) {
        p.toHandle().destroy();
        try {
            if (!p.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
