package io.nbench.transport.support;

import io.nbench.transport.ServerEvents;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code --idle-timeout} for every server transport: one daemon thread per server looks at each
 * connection's progress counter a few times per timeout and closes the connections whose counter has
 * not moved for the whole timeout. Progress is a completed request (echo: bytes read), so a peer that
 * trickles a byte at a time (slowloris) or stops reading its responses is idle, whatever bytes it sends.
 *
 * <p>The I/O thread's cost per request is one plain store ({@link Watch#progress}); the checking, the
 * clock and the closing happen on the sweeper thread. A connection is closed between the timeout and
 * 1.25 times it after its last progress.
 */
public final class IdleConnections implements AutoCloseable {

    /** One connection's progress, written by the thread that serves it. */
    public static final class Watch {
        private static final VarHandle PROGRESS;

        static {
            try {
                PROGRESS = MethodHandles.lookup().findVarHandle(Watch.class, "progress", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private long progress;
        private final Runnable close;
        private long seen;
        private long quietSince;

        private Watch(Runnable close) {
            this.close = close;
        }

        /** The connection completed a request (echo: read bytes). Only its own I/O thread calls this. */
        public void progress() {
            // Opaque: a plain store on x86, yet guaranteed to become visible to the sweeper.
            PROGRESS.setOpaque(this, progress + 1);
        }
    }

    private final long timeoutNanos;
    private final ServerEvents events;
    private final Set<Watch> watched = ConcurrentHashMap.newKeySet();
    private final Thread sweeper;
    private volatile boolean closed;

    private IdleConnections(Duration timeout, ServerEvents events, String threadName) {
        this.timeoutNanos = timeout == null ? 0 : timeout.toNanos();
        this.events = events;
        if (timeoutNanos > 0) {
            sweeper = new Thread(this::sweep, threadName);
            sweeper.setDaemon(true);
            sweeper.start();
        } else {
            sweeper = null;
        }
    }

    /** Starts the sweeper of a server; with a null timeout nothing is watched and no thread runs. */
    public static IdleConnections start(Duration timeout, ServerEvents events, String threadName) {
        return new IdleConnections(timeout, events, threadName);
    }

    public boolean enabled() {
        return sweeper != null;
    }

    /**
     * A new connection; {@code close} must be safe to call from another thread. Returns its watch (a
     * working one even when the timeout is off, so callers need no branch).
     */
    public Watch watch(Runnable close) {
        Watch w = new Watch(close);
        if (sweeper != null && !closed) {
            w.quietSince = System.nanoTime();
            watched.add(w);
        }
        return w;
    }

    /** The connection closed. */
    public void forget(Watch w) {
        if (w != null) {
            watched.remove(w);
        }
    }

    private void sweep() {
        long period = Math.max(1_000_000L, timeoutNanos / 4);
        while (!closed) {
            LockSupport.parkNanos(period);
            long now = System.nanoTime();
            for (Watch w : watched) {
                long p = (long) Watch.PROGRESS.getOpaque(w);
                if (p != w.seen) {
                    w.seen = p;
                    w.quietSince = now;
                } else if (now - w.quietSince >= timeoutNanos && watched.remove(w)) {
                    events.idleClosed();
                    w.close.run();
                }
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        if (sweeper != null) {
            LockSupport.unpark(sweeper);
            Threads.join(sweeper);
        }
        watched.clear();
    }
}
