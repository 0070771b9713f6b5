package io.nbench.load;

/**
 * A thread that sends and may park waiting for a connection's permit. Connections wake parked senders
 * when they release a permit; the flag lets them skip the unpark (a syscall) when nobody waits.
 */
abstract class Sender extends Thread {

    /** Set while this thread parks waiting for a permit; read by the threads that release permits. */
    volatile boolean parked;

    Sender(String name) {
        super(name);
        setDaemon(true);
    }
}
