package io.nbench.transport.blocking;

import java.util.Collection;

/** Joining the threads a transport started, ignoring interrupts until they are gone. */
final class Threads {

    private Threads() {
    }

    static void join(Thread t) {
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

    static void joinAll(Collection<Thread> threads) {
        for (Thread t : threads) {
            join(t);
        }
    }
}
