package io.nbench.load;

import io.nbench.stats.ErrorCounts;
import io.nbench.stats.StatusCounts;
import io.nbench.transport.ErrorKind;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * What a {@link LoadConnection} needs from the run it belongs to, and nothing more: the clock it stamps
 * messages with, how to verify responses, where errors and late responses are counted, the two flags that
 * stop it, and four events it reports. The flags and counters are fields rather than methods because they
 * are read for every message: a field read is what the hot path can afford.
 */
abstract class ConnectionHost {

    /** Every timestamp and every wait for a moment in time; tests move it by hand. */
    final NanoClock clock;
    final Verify verify;
    /** Closed loop, io driver: a finished message sends the connection's next one from the same thread. */
    final boolean ioDriver;
    final ErrorCounts errors = new ErrorCounts();
    final LongAdder lateResponses = new LongAdder();
    /** Responses by status code, for protocols whose responses carry one (HTTP). */
    final StatusCounts statuses = errors.statuses();

    /** The run is shutting down: closes and errors from here on are its own doing, not the server's. */
    volatile boolean closing;
    /** No more messages go out: the run is ending or aborted. */
    volatile boolean stopSending;
    /**
     * The transport reported a TLS handshake as part of a connect (set by the first connections, before the
     * first iteration): the iterations then report the reconnects' handshake latency.
     */
    volatile boolean handshakes;

    ConnectionHost(NanoClock clock, Verify verify, boolean ioDriver) {
        this.clock = clock;
        this.verify = verify;
        this.ioDriver = ioDriver;
    }

    /** Keeps the first message of each kind of error, for the report. */
    abstract void noteError(ErrorKind kind, String message);

    /** The peer does not speak the protocol: counted, and the run stops at once. */
    abstract void protocolMismatch(AbortCause cause, String message);

    /** A connection is closed for good. */
    abstract void connectionLost(LoadConnection c);

    /**
     * A connection the server closed after saying so waits to be replaced: the thread that replaces
     * connections with the io driver (the watchdog) is woken.
     */
    void replaceClosed() {
        Thread t = replacer;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /** The thread {@link #replaceClosed} wakes, or null. */
    volatile Thread replacer;

    /** The recorder of {@code thread}, which must be the calling thread. */
    abstract ThreadContext contextFor(Thread thread);

    /** The calling thread, a connection's own reader, ends: its recorder goes to the next new recording thread. */
    abstract void releaseContext();
}
