package io.nbench.load;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A thread that sends and may park waiting for a connection's permit. Connections wake parked senders
 * when they release a permit; the flag lets them skip the unpark (a syscall) when nobody waits.
 */
abstract class Sender extends Thread {

    /** Set while this thread parks waiting for a permit; read by the threads that release permits. */
    volatile boolean parked;

    /** Batch mode: this sender's messages not yet done. */
    final AtomicInteger outstanding = new AtomicInteger();

    /** Batch mode: one of this sender's messages is done (answered, failed or timed out). */
    void messageDone() {
        if (outstanding.decrementAndGet() == 0 && parked) {
            LockSupport.unpark(this);
        }
    }

    Sender(String name) {
        super(name);
        setDaemon(true);
    }
}
