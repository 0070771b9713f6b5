package io.nbench.load;

import io.nbench.protocol.RequestTemplate;
import io.nbench.stats.ErrorCounts;
import io.nbench.stats.IterationResult;
import io.nbench.stats.LatencyHistograms;
import io.nbench.stats.Summary;
import io.nbench.transport.ClientTransport;
import io.nbench.transport.ErrorKind;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Phaser;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * One closed-loop client run against one server: connects, runs warmup and measured iterations with the
 * chosen driver, and collects per-iteration histograms and errors. The transport only moves bytes; every
 * timestamp and statistic is taken here and in {@link LoadConnection}.
 *
 * <p>Threads: the caller's thread coordinates (starts iterations, waits for drains, flips the per-thread
 * recorders at iteration boundaries); sender threads (threads driver) or the transport's I/O threads (io
 * driver) send; the transport's I/O threads record; one watchdog thread expires messages past the
 * timeout.
 */
public final class BenchmarkRun {

    final LoadSpec spec;
    final boolean ioDriver;
    final Verify verify;
    final ErrorCounts errors = new ErrorCounts();
    final LongAdder lateResponses = new LongAdder();
    private final Map<ErrorKind, String> firstErrors = new ConcurrentHashMap<>();

    volatile boolean closing;
    volatile boolean stopSending;
    private volatile String abortReason;
    private volatile boolean interrupted;
    private volatile boolean finished;

    private final ThreadLocal<ThreadContext> contexts = new ThreadLocal<>();
    private final List<ThreadContext> allContexts = new CopyOnWriteArrayList<>();
    private final AtomicInteger liveConnections = new AtomicInteger();
    private final RunListener listener;
    private volatile Thread coordinator;

    private LoadConnection[] connections = new LoadConnection[0];
    private SenderThread[] senders = new SenderThread[0];
    private Phaser phaser;
    private Thread watchdog;

    public BenchmarkRun(LoadSpec spec, RunListener listener) {
        this.spec = spec;
        this.ioDriver = spec.driver() == Driver.IO;
        this.verify = spec.verify();
        this.listener = listener;
    }

    /**
     * Runs the whole benchmark. Returns the result even when the run was aborted or interrupted midway
     * (whatever was measured is in it); throws {@link RunFailure} only if it could not start.
     */
    public RunResult execute(ClientTransport transport, InetSocketAddress remote) throws RunFailure {
        coordinator = Thread.currentThread();
        List<IterationResult> results = new ArrayList<>();
        try {
            connect(transport, remote);
            listener.onConnected(connections.length);
            startWatchdog();
            if (!ioDriver) {
                startSenders();
            }
            if (spec.timeBased()) {
                runTimed(results);
            } else {
                runCounted(results);
            }
        } finally {
            shutdown();
        }
        Map<ErrorKind, String> first = new EnumMap<>(ErrorKind.class);
        first.putAll(firstErrors);
        return new RunResult(spec, List.copyOf(results), new Summary(results, spec.percentiles()),
                errors.snapshot(), lateResponses.sum(), first, abortReason, interrupted);
    }

    /** Stops the run from another thread (SIGINT): the current iteration is cut and reported. */
    public void interrupt() {
        interrupted = true;
        abort("interrupted");
    }

    // ---- set-up -----------------------------------------------------------------------------------

    private void connect(ClientTransport transport, InetSocketAddress remote) throws RunFailure {
        LoadConnection[] cs = new LoadConnection[spec.connections()];
        for (int i = 0; i < cs.length; i++) {
            RequestTemplate template = RequestTemplate.of(spec.protocol(), spec.size(), spec.responseSize(), i + 1L);
            LoadConnection c = new LoadConnection(i, this, template, spec.window(), spec.measure() == Measure.SEND);
            try {
                c.transport = i == 0 ? connectFirst(transport, remote, template, c) : transport.connect(remote, template, c);
            } catch (IOException e) {
                connections = java.util.Arrays.copyOf(cs, i);
                throw new RunFailure("cannot connect to " + describe(remote) + " (connection " + (i + 1) + " of "
                        + cs.length + "): " + e.getMessage(), e);
            }
            cs[i] = c;
            liveConnections.incrementAndGet();
        }
        connections = cs;
    }

    /**
     * The first connection retries "refused" until the connect timeout passes: a client started together
     * with its server ({@code nbench server & nbench client}) waits for it to listen.
     */
    private io.nbench.transport.ClientConnection connectFirst(ClientTransport transport, InetSocketAddress remote,
            RequestTemplate template, LoadConnection c) throws IOException {
        long deadline = System.nanoTime() + spec.connectTimeoutNanos();
        for (;;) {
            try {
                return transport.connect(remote, template, c);
            } catch (IOException e) {
                boolean refused = String.valueOf(e.getMessage()).contains("refused");
                if (!refused || System.nanoTime() + 100_000_000L > deadline || abortReason != null) {
                    throw e;
                }
                LockSupport.parkNanos(100_000_000L);
            }
        }
    }

    private static String describe(InetSocketAddress a) {
        return a.getHostString() + ":" + a.getPort();
    }

    /** Threads driver: thread t owns connections t, t+T, ... or, with fewer connections, shares one. */
    private void startSenders() {
        int threads = spec.threads();
        int conns = connections.length;
        senders = new SenderThread[threads];
        List<List<SenderThread>> waitersOf = new ArrayList<>();
        for (int c = 0; c < conns; c++) {
            waitersOf.add(new ArrayList<>());
        }
        for (int t = 0; t < threads; t++) {
            List<LoadConnection> mine = new ArrayList<>();
            if (conns >= threads) {
                for (int c = t; c < conns; c += threads) {
                    mine.add(connections[c]);
                }
            } else {
                mine.add(connections[t % conns]);
            }
            senders[t] = new SenderThread(this, t, mine.toArray(new LoadConnection[0]));
            for (LoadConnection c : mine) {
                waitersOf.get(c.index).add(senders[t]);
            }
        }
        for (int c = 0; c < conns; c++) {
            connections[c].waiters = waitersOf.get(c).toArray(new SenderThread[0]);
        }
        phaser = new Phaser(threads + 1);
        for (SenderThread s : senders) {
            s.start();
        }
    }

    private void startWatchdog() {
        long period = Math.max(1_000_000L, Math.min(100_000_000L, spec.timeoutNanos() / 10));
        watchdog = new Thread(() -> {
            ThreadContext ctx = contextFor(Thread.currentThread());
            while (!closing) {
                LockSupport.parkNanos(period);
                long now = System.nanoTime();
                for (LoadConnection c : connections) {
                    if (!c.dead) {
                        c.expire(now, spec.timeoutNanos(), ctx);
                    }
                }
            }
        }, "nbench-timeout-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
    }

    // ---- iterations -------------------------------------------------------------------------------

    private int total() {
        return spec.warmup() + spec.iterations();
    }

    private void runCounted(List<IterationResult> results) {
        for (int i = 0; i < total() && abortReason == null; i++) {
            Baseline before = baseline();
            long start = System.nanoTime();
            if (ioDriver) {
                kick(true);
            } else {
                phaser.arriveAndAwaitAdvance(); // senders start
                phaser.arriveAndAwaitAdvance(); // senders have sent their quota
            }
            drain();
            long end = System.nanoTime();
            report(results, i, end - start, before, abortReason != null);
        }
    }

    private void runTimed(List<IterationResult> results) {
        long start = System.nanoTime();
        if (ioDriver) {
            kick(false);
        } else {
            phaser.arriveAndAwaitAdvance();
        }
        long boundary = start;
        for (int i = 0; i < total(); i++) {
            Baseline before = baseline();
            long from = boundary;
            boundary = from + spec.iterationNanos();
            long now;
            while ((now = System.nanoTime()) < boundary && abortReason == null) {
                LockSupport.parkNanos(Math.min(boundary - now, 50_000_000L));
            }
            boolean cut = abortReason != null;
            report(results, i, (cut ? now : boundary) - from, before, cut);
            if (cut) {
                break;
            }
        }
        stopSending = true;
        if (ioDriver) {
            for (LoadConnection c : connections) {
                c.remaining.set(0);
            }
        } else {
            phaser.arriveAndAwaitAdvance();
        }
        drain();
    }

    /** Io driver: gives each connection its quota and fills its window; I/O threads send the rest. */
    private void kick(boolean counted) {
        int conns = connections.length;
        long total = spec.messagesPerIteration();
        for (int c = 0; c < conns; c++) {
            LoadConnection lc = connections[c];
            if (lc.dead) {
                continue;
            }
            long quota = counted ? total / conns + (c < total % conns ? 1 : 0) : Long.MAX_VALUE;
            int initial = (int) Math.min(quota, lc.window);
            lc.remaining.set(quota - initial);
            int taken = 0;
            while (taken < initial && lc.tryAcquire()) {
                taken++;
            }
            for (int k = 0; k < taken; k++) {
                lc.sendOne();
            }
        }
    }

    /** Waits until every connection has all its permits back (the watchdog bounds this by the timeout). */
    private void drain() {
        long deadline = System.nanoTime() + spec.timeoutNanos() + TimeUnit.SECONDS.toNanos(2);
        Thread me = Thread.currentThread();
        for (LoadConnection c : connections) {
            c.drainWaiter = me;
            try {
                while (!c.drained()) {
                    if (System.nanoTime() > deadline) {
                        abort("responses still outstanding " + TimeUnit.NANOSECONDS.toMillis(spec.timeoutNanos() + 2_000_000_000L)
                                + " ms after the last send");
                        return;
                    }
                    LockSupport.parkNanos(10_000_000L);
                }
            } finally {
                c.drainWaiter = null;
            }
        }
    }

    private record Baseline(ErrorCounts.Snapshot errors, long clamped) {
    }

    private Baseline baseline() {
        return new Baseline(errors.snapshot(), clamped());
    }

    private long clamped() {
        long n = 0;
        for (ThreadContext c : allContexts) {
            n += c.clamped.get();
        }
        return n;
    }

    private void report(List<IterationResult> results, int i, long wallNanos, Baseline before, boolean partial) {
        Histogram h = LatencyHistograms.newHistogram();
        for (ThreadContext c : allContexts) {
            c.drainInto(h);
        }
        boolean warmup = i < spec.warmup();
        int index = warmup ? i + 1 : i - spec.warmup() + 1;
        IterationResult r = new IterationResult(index, warmup, h.getTotalCount(), wallNanos, spec.size(), h,
                errors.snapshot().minus(before.errors()), clamped() - before.clamped(), partial);
        results.add(r);
        listener.onIteration(r);
    }

    // ---- events from connections ------------------------------------------------------------------

    ThreadContext contextFor(Thread thread) {
        ThreadContext c = contexts.get();
        if (c == null) {
            c = new ThreadContext(thread);
            contexts.set(c);
            allContexts.add(c);
        }
        return c;
    }

    boolean awaitIterationStart() {
        phaser.arriveAndAwaitAdvance();
        return !finished;
    }

    void senderFinished() {
        phaser.arriveAndAwaitAdvance();
    }

    void noteError(ErrorKind kind, String message) {
        firstErrors.putIfAbsent(kind, message);
    }

    void connectionLost(LoadConnection c) {
        if (liveConnections.decrementAndGet() == 0) {
            String cause = firstErrors.getOrDefault(ErrorKind.READ, firstErrors.get(ErrorKind.PROTOCOL));
            abort("all " + connections.length + " connections were closed by the server"
                    + (cause != null ? " (" + cause + ")" : "") + ": is the server still running?");
        }
    }

    void abort(String reason) {
        if (abortReason == null) {
            abortReason = reason;
        }
        stopSending = true;
        Thread t = coordinator;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    private void shutdown() {
        closing = true;
        stopSending = true;
        finished = true;
        if (senders.length > 0 && phaser != null) {
            // Release senders waiting for an iteration start; they see finished and exit.
            phaser.forceTermination();
        }
        for (LoadConnection c : connections) {
            if (c != null && c.transport != null) {
                c.transport.close();
            }
        }
        for (SenderThread s : senders) {
            joinQuietly(s);
        }
        if (watchdog != null) {
            LockSupport.unpark(watchdog);
            joinQuietly(watchdog);
        }
    }

    private static void joinQuietly(Thread t) {
        try {
            t.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
