package io.nbench.server;

import io.nbench.server.metrics.Measurements;
import io.nbench.server.metrics.MetricsSnapshot;
import io.nbench.server.metrics.MetricsText;
import io.nbench.transport.ServerEvents;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * The server's metrics as transports report them from their I/O threads: the connection limit, the
 * rate-limited logs, and the counters and histograms kept by {@link Measurements} (whose concurrency
 * protocol keeps the I/O threads lock-free). Protocol errors are logged one line each, at most one line
 * per second (the rest are counted and summarized).
 */
public final class ServerMetrics implements ServerEvents {

    /** Connections open: a counter to check against the limit, not an adder, so that it never overshoots. */
    private final AtomicInteger open = new AtomicInteger();
    private final int maxConnections;
    private final String overLimitHint;
    private final ConcurrentHashMap<String, Trouble> troubles = new ConcurrentHashMap<>();
    /** System.nanoTime, or a test's hand-moved clock. */
    private final LongSupplier clock;
    private final AtomicLong lastLogNanos;
    private final LongAdder suppressed = new LongAdder();
    private final PrintWriter log;
    private final long startNanos;
    private final Measurements measurements;
    private volatile boolean stopping;

    /** Without a connection limit. */
    public ServerMetrics(PrintWriter log) {
        this(log, Integer.MAX_VALUE, "");
    }

    /**
     * With a limit on open connections ({@code --max-connections}): one more is refused, and logged at
     * most once per 10 s with {@code overLimitHint} (what each connection may hold, how to raise it).
     */
    public ServerMetrics(PrintWriter log, int maxConnections, String overLimitHint) {
        this(log, maxConnections, overLimitHint, System::nanoTime, true);
    }

    ServerMetrics(PrintWriter log, int maxConnections, String overLimitHint, LongSupplier clock,
                  boolean readResources) {
        this.clock = clock;
        this.measurements = new Measurements(clock, readResources);
        this.startNanos = clock.getAsLong();
        this.lastLogNanos = new AtomicLong(startNanos - 2_000_000_000L);
        this.log = log;
        this.maxConnections = maxConnections;
        this.overLimitHint = overLimitHint;
        // Created now: a failed accept is reported when the process is out of descriptors, when loading
        // a class from a directory on the class path could fail.
        troubles.put("accept", new Trouble(startNanos));
    }

    @Override
    public boolean connectionOpened() {
        int n;
        do {
            n = open.get();
            if (n >= maxConnections) {
                measurements.connectionRefused();
                trouble("max-connections", String.format(Locale.ROOT, "refused a connection: %,d are open, the most "
                        + "--max-connections allows%s", maxConnections, overLimitHint));
                return false;
            }
        } while (!open.compareAndSet(n, n + 1));
        measurements.connectionAccepted();
        return true;
    }

    @Override
    public void connectionClosed() {
        open.decrementAndGet();
    }

    @Override
    public void requestServed(int requestBytes, int responseBytes) {
        measurements.served(requestBytes, responseBytes);
    }

    @Override
    public void requestReceived(int requestBytes) {
        measurements.received(requestBytes);
    }

    @Override
    public void requestAnswered(int requestBytes, int responseBytes) {
        measurements.answered(requestBytes, responseBytes);
    }

    @Override
    public void requestRejected(int responseBytes) {
        measurements.rejected(responseBytes);
    }

    /** Counted as dropped at shutdown once {@link #stopping} was called, else as dropped on close. */
    @Override
    public void requestsDropped(int count) {
        measurements.dropped(count, stopping);
    }

    /**
     * The server is stopping: from now on a request whose connection closes before its answer was dropped
     * by the stop, not by its peer.
     */
    public void stopping() {
        stopping = true;
    }

    @Override
    public void queueWait(long nanos) {
        measurements.queueWait(nanos);
    }

    @Override
    public void processed(long nanos) {
        measurements.processed(nanos);
    }

    @Override
    public void echoed(int bytes) {
        measurements.echoed(bytes);
    }

    @Override
    public void refusalAnswered(int responseBytes) {
        measurements.refusalAnswered(responseBytes);
    }

    @Override
    public void protocolError(String remote, String message) {
        measurements.protocolError();
        long now = clock.getAsLong();
        long last = lastLogNanos.get();
        if (now - last >= 1_000_000_000L && lastLogNanos.compareAndSet(last, now)) {
            long more = suppressed.sumThenReset();
            log.println("nbench server: protocol error from " + remote + ": " + message + "; connection closed"
                    + (more > 0 ? " (" + more + " more since the last line)" : ""));
            log.flush();
        } else {
            suppressed.increment();
        }
    }

    @Override
    public void idleClosed() {
        measurements.idleClosed();
    }

    public long idleClosedConnections() {
        return measurements.idleClosedConnections();
    }

    /** At most one line per {@link #TROUBLE_INTERVAL_NANOS} for each cause; the rest are counted in the next. */
    @Override
    public void trouble(String cause, String message) {
        long now = clock.getAsLong();
        Trouble t = troubles.computeIfAbsent(cause, k -> new Trouble(now));
        long last = t.lastLogNanos.get();
        if (now - last >= TROUBLE_INTERVAL_NANOS && t.lastLogNanos.compareAndSet(last, now)) {
            long more = t.suppressed.sumThenReset();
            log.println("nbench server: " + message + (more > 0 ? " (" + more + " more since the last line)" : ""));
            log.flush();
        } else {
            t.suppressed.increment();
        }
    }

    static final long TROUBLE_INTERVAL_NANOS = 10_000_000_000L;

    private static final class Trouble {
        final AtomicLong lastLogNanos;

        Trouble(long now) {
            lastLogNanos = new AtomicLong(now - TROUBLE_INTERVAL_NANOS);
        }
        final LongAdder suppressed = new LongAdder();
    }

    /**
     * In the server command ({@link FatalErrors#install}) the process ends, exit 1, one line; a server started
     * as a library logs the line (at the trouble rate) and leaves ending to the program that started it.
     */
    @Override
    public void fatal(Throwable cause) {
        if (FatalErrors.installed()) {
            FatalErrors.exit(Thread.currentThread(), cause);
        } else {
            trouble("fatal", "thread " + Thread.currentThread().getName() + " failed (" + cause + "): the server "
                    + "cannot go on");
        }
    }

    public long protocolErrors() {
        return measurements.protocolErrors();
    }

    public long requests() {
        return measurements.requests();
    }

    public long totalConnections() {
        return measurements.totalConnections();
    }

    public long openConnections() {
        return open.get();
    }

    /** Connections closed at once because --max-connections were open. */
    public long refusedConnections() {
        return measurements.refusedConnections();
    }

    /** Every figure now (for the monitor and the reports); takes the readers' lock, never an I/O thread's. */
    public MetricsSnapshot snapshot() {
        return measurements.snapshot(open.get());
    }

    /** The monitor's {@code reset}: zeroes what is counted since reset; the cumulative figures stay. */
    public void reset() {
        measurements.reset();
    }

    public Measurements measurements() {
        return measurements;
    }

    /**
     * The report printed when the server has stopped (transport closed, pool ended): what is still in
     * progress then is counted as dropped at shutdown first, so that every request received is in it.
     */
    public void printFinal(PrintWriter out) {
        measurements.settleAtShutdown();
        print(out);
    }

    /** The report of every figure since start. */
    public void print(PrintWriter out) {
        out.println(MetricsText.report(snapshot(), false, measurements.resetEpochMillis()));
        out.flush();
    }
}
