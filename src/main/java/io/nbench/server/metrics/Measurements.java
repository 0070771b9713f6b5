package io.nbench.server.metrics;

import io.nbench.resources.ResourceSnapshot;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;

/**
 * What the server measures, recorded by its I/O threads and read by the monitor, the interval reporter and
 * the exit report.
 *
 * <p>Concurrency protocol: the {@code record}/{@code count} methods are the writer side, called from any
 * I/O or pool thread; they take no lock and allocate nothing ({@link LongAdder}s and
 * {@link StripedRecorder}s). Every reader method ({@link #snapshot}, {@link #reset}, {@link #takeInterval},
 * {@link #sample}) holds this object's monitor, which no writer ever takes: it drains the recorders into
 * the accumulating histograms (since start, since reset, since the last interval report), which only
 * readers touch. Counters are read as they are (LongAdder sums): a count racing a reset lands on one side
 * of it. {@code reset} moves the "since reset" baseline and clears the "since reset" histograms; the
 * cumulative "since start" figures never go back, so a client can subtract two snapshots.
 */
public final class Measurements {

    /** The window of the recent rates. */
    public static final long RECENT_NANOS = 10_000_000_000L;

    private final LongAdder received = new LongAdder();
    private final LongAdder requests = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private final LongAdder dropped = new LongAdder();
    private final LongAdder droppedAtShutdown = new LongAdder();
    private final LongAdder bytesIn = new LongAdder();
    private final LongAdder bytesOut = new LongAdder();
    private final LongAdder connections = new LongAdder();
    private final LongAdder protocolErrors = new LongAdder();
    private final LongAdder idleClosed = new LongAdder();
    private final LongAdder refused = new LongAdder();
    private final StripedRecorder processing = new StripedRecorder();
    private final StripedRecorder queueWait = new StripedRecorder();
    private final StripedRecorder requestSize = new StripedRecorder();
    private final StripedRecorder responseSize = new StripedRecorder();

    private final LongSupplier clock;
    private final long startNanos;
    private final boolean readResources;
    // Reader side, guarded by this.
    private final Counters atStart;
    private final Histograms sinceStart = Histograms.empty();
    private final Histograms sinceReset = Histograms.empty();
    private final Histograms sinceReport = Histograms.empty();
    private Counters resetBase;
    private Counters reportBase;
    /** Raw counts taken once a second by {@link #sample}, oldest first, for the recent rates. */
    private final ArrayDeque<Counters> seconds = new ArrayDeque<>();
    private final AtomicLong resetEpochMillis = new AtomicLong(System.currentTimeMillis());

    /**
     * @param clock         System.nanoTime, or a test's clock moved by hand
     * @param readResources read the process's CPU and GC (false in tests that compare exact figures)
     */
    public Measurements(LongSupplier clock, boolean readResources) {
        this.clock = clock;
        this.readResources = readResources;
        this.startNanos = clock.getAsLong();
        this.atStart = raw();
        this.resetBase = atStart;
        this.reportBase = atStart;
    }

    // ---- writer side: any thread, no lock, no allocation

    /** Received and answered at once (on the I/O thread). Received first: see {@link #raw} for why. */
    public void served(int requestBytes, int responseBytes) {
        received.increment();
        bytesIn.add(requestBytes);
        answered(requestBytes, responseBytes);
    }

    /** Received, to be answered later (by the business pool): its bytes are read now. */
    public void received(int requestBytes) {
        received.increment();
        bytesIn.add(requestBytes);
    }

    /** A request counted by {@link #received} was answered. */
    public void answered(int requestBytes, int responseBytes) {
        requests.increment();
        bytesOut.add(responseBytes);
        requestSize.record(requestBytes);
        responseSize.record(responseBytes);
    }

    /** A request counted by {@link #received} was answered 'rejected'. */
    public void rejected(int responseBytes) {
        rejected.increment();
        bytesOut.add(responseBytes);
    }

    /** Requests counted by {@link #received} that will never be answered. */
    public void dropped(int count, boolean atShutdown) {
        (atShutdown ? droppedAtShutdown : dropped).add(count);
    }

    /** The protocol's answer to a request it refuses: bytes out, no request. */
    public void refusalAnswered(int responseBytes) {
        bytesOut.add(responseBytes);
    }

    public void echoed(int bytes) {
        bytesIn.add(bytes);
        bytesOut.add(bytes);
    }

    public void processed(long nanos) {
        processing.record(nanos);
    }

    public void queueWait(long nanos) {
        queueWait.record(nanos);
    }

    public void connectionAccepted() {
        connections.increment();
    }

    public void connectionRefused() {
        refused.increment();
    }

    public void protocolError() {
        protocolErrors.increment();
    }

    public void idleClosed() {
        idleClosed.increment();
    }

    // ---- plain reads of single counters (tests, the exit line)

    public long requests() {
        return requests.sum();
    }

    public long totalConnections() {
        return connections.sum();
    }

    public long protocolErrors() {
        return protocolErrors.sum();
    }

    public long idleClosedConnections() {
        return idleClosed.sum();
    }

    public long refusedConnections() {
        return refused.sum();
    }

    // ---- reader side: under this object's monitor, never taken by a writer

    /**
     * The server has stopped (its transport closed, its pool ended): nothing received will be answered any
     * more, so whatever is still in progress is dropped at shutdown. Called once, before the last report.
     */
    public synchronized void settleAtShutdown() {
        droppedAtShutdown.add(raw().inProgress());
    }

    /** Everything now; {@code openConnections} is the gauge the caller keeps. */
    public synchronized MetricsSnapshot snapshot(long openConnections) {
        drain();
        Counters now = raw();
        Counters recent = atStart;
        for (Counters c : seconds) {
            if (now.nanos() - c.nanos() <= RECENT_NANOS + 500_000_000L) {
                recent = c;
                break;
            }
        }
        return new MetricsSnapshot(System.currentTimeMillis(), openConnections, now.minus(atStart), sinceStart.copy(),
                now.minus(resetBase), sinceReset.copy(), now.minus(recent));
    }

    /** Zeroes the counters and histograms since reset; the cumulative ones and the connection gauge stay. */
    public synchronized void reset() {
        drain();
        sinceReset.reset();
        resetBase = raw();
        resetEpochMillis.set(System.currentTimeMillis());
    }

    /** When the figures since reset began (the start if never reset), ms since the epoch. */
    public long resetEpochMillis() {
        return resetEpochMillis.get();
    }

    /** What happened since the previous call (or start), for the periodic report line. */
    public synchronized Interval takeInterval() {
        drain();
        Counters now = raw();
        Interval i = new Interval(now.minus(reportBase), sinceReport.processing().copy(), sinceReport.queueWait().copy());
        sinceReport.reset();
        reportBase = now;
        return i;
    }

    /** One report interval's counts and its processing and queue-wait histograms (ns). */
    public record Interval(Counters counts, Histogram processing, Histogram queueWait) {
    }

    /** Called once a second by the metrics thread: keeps the recorders' intervals short and the recent rates. */
    public synchronized void sample() {
        drain();
        seconds.addLast(raw());
        while (seconds.size() > RECENT_NANOS / 1_000_000_000L + 1) {
            seconds.removeFirst();
        }
    }

    private void drain() {
        processing.drainInto(sinceStart.processing(), sinceReset.processing(), sinceReport.processing());
        queueWait.drainInto(sinceStart.queueWait(), sinceReset.queueWait(), sinceReport.queueWait());
        requestSize.drainInto(sinceStart.requestSize(), sinceReset.requestSize(), sinceReport.requestSize());
        responseSize.drainInto(sinceStart.responseSize(), sinceReset.responseSize(), sinceReport.responseSize());
    }

    /** The counts as they are, with the process's CPU and GC since the JVM started. */
    private Counters raw() {
        long cpu = -1;
        long gcCount = 0;
        long gcMillis = 0;
        if (readResources) {
            ResourceSnapshot r = ResourceSnapshot.take();
            cpu = r.processCpuNanos();
            gcCount = r.gcCount();
            gcMillis = r.gcMillis();
        }
        // The outcomes before the receipts: a request's receipt happens before its outcome is counted, so
        // whatever outcome this sees has its receipt in the later read and in progress is never negative.
        long answered = requests.sum();
        long rejectedNow = rejected.sum();
        long droppedNow = dropped.sum();
        long droppedAtStop = droppedAtShutdown.sum();
        long bytesOutNow = bytesOut.sum();
        return new Counters(clock.getAsLong() - startNanos, received.sum(), answered, rejectedNow, droppedNow,
                droppedAtStop, bytesIn.sum(), bytesOutNow, connections.sum(), protocolErrors.sum(), idleClosed.sum(),
                refused.sum(), cpu, gcCount, gcMillis);
    }
}
