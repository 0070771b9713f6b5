package io.nbench.transport.support;

import java.util.Collection;

/** Joining the threads a transport started, ignoring interrupts until they are gone. */
public final class Threads {

    private Threads() {
    }

    public static void join(Thread t) {
        if (t == null || t == Thread.currentThread()) {
            return;
        }
        boolean interrupted = false;
        while (t.isAlive()) {
            try {
                t.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    public static void joinAll(Collection<Thread> threads) {
        for (Thread t : threads) {
            join(t);
        }
    }
}
