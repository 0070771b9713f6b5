package io.nbench.process;

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

    /**
     * Registers the shutdown hook that stops {@code p} when this JVM ends; give it to {@link #forget}. Null when
     * this JVM is already ending: {@code p} has then been stopped. The hook
     * first waits up to {@code patience} for the child to end by itself (a server that this JVM stops in order
     * once its client has printed its partial results), then stops it.
     */
    public static Thread stopWhenThisJvmEnds(Process p, Duration patience, Duration grace, String name) {
        Thread hook = new Thread(() -> {
            try {
                if (p.waitFor(patience.toMillis(), TimeUnit.MILLISECONDS)) {
                    return;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            stop(p, grace);
        }, name);
        try {
            Runtime.getRuntime().addShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            stop(p, grace);
            return null;
        }
        return hook;
    }

    /** The child has ended: its hook is no longer needed. */
    public static void forget(Thread hook) {
        if (hook == null) {
            return;
        }
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
