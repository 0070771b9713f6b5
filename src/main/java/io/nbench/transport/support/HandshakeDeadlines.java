package io.nbench.transport.support;

import io.nbench.transport.ServerEvents;
import io.nbench.units.Durations;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code --tls-handshake-timeout} for the server transports whose TLS has no timeout of its own (nio, blocking,
 * vthreads, mina): a connection whose handshake is not over this long after it was accepted is closed, counted and
 * logged as a protocol error, as Netty's SslHandler does with its own timeout. Without it a peer that connects and
 * sends nothing (or a byte now and then) holds its connection, and on the blocking server a thread, for ever.
 *
 * <p>One daemon thread per TLS server looks at the connections still shaking hands a few times per timeout; the
 * I/O thread only adds a connection when it is accepted and removes it when its handshake is over, never per
 * message. A connection is closed between the timeout and 1.25 times it after it was accepted.
 */
public final class HandshakeDeadlines implements AutoCloseable {

    /** One connection's handshake, from its accept to its end. */
    public static final class Deadline {
        private final long startNanos;
        private final String remote;
        private final Runnable close;

        private Deadline(long startNanos, String remote, Runnable close) {
            this.startNanos = startNanos;
            this.remote = remote;
            this.close = close;
        }
    }

    private final long timeoutNanos;
    private final String timeoutText;
    private final ServerEvents events;
    private final Set<Deadline> pending = ConcurrentHashMap.newKeySet();
    private final Thread sweeper;
    private volatile boolean closed;

    private HandshakeDeadlines(Duration timeout, ServerEvents events, String threadName) {
        this.timeoutNanos = timeout.toNanos();
        this.timeoutText = Durations.format(timeout);
        this.events = events;
        sweeper = new Thread(this::sweep, threadName);
        sweeper.setDaemon(true);
        sweeper.start();
    }

    /** Starts the sweeper of a TLS server. */
    public static HandshakeDeadlines start(Duration timeout, ServerEvents events, String threadName) {
        return new HandshakeDeadlines(timeout, events, threadName);
    }

    /**
     * A connection accepted, its handshake to come; {@code close} must be safe to call from another thread (it
     * must end a thread blocked in the handshake). Returns what {@link #done} takes.
     */
    public Deadline start(String remote, Runnable close) {
        Deadline d = new Deadline(System.nanoTime(), remote, close);
        if (!closed) {
            pending.add(d);
        }
        return d;
    }

    /**
     * The handshake is over (done or failed), or the connection closed: no longer timed. Null is ignored.
     *
     * @return false when the timeout closed it first (and reported it): a failure seen now is that close's echo
     */
    public boolean done(Deadline d) {
        return d != null && pending.remove(d);
    }

    private void sweep() {
        long period = Math.max(1_000_000L, timeoutNanos / 4);
        while (!closed) {
            LockSupport.parkNanos(period);
            long now = System.nanoTime();
            for (Deadline d : pending) {
                // remove() decides between this and the handshake ending at the same instant.
                if (now - d.startNanos >= timeoutNanos && pending.remove(d)) {
                    events.protocolError(d.remote, "TLS handshake not done after " + timeoutText
                            + " (a client that connects and sends nothing, or too slowly; raise "
                            + "--tls-handshake-timeout for a slow network)");
                    d.close.run();
                }
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(sweeper);
        Threads.join(sweeper);
        pending.clear();
    }
}
