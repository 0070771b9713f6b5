package io.nbench.load;

import io.nbench.protocol.RequestTemplate;
import io.nbench.resources.ResourceSnapshot;
import io.nbench.resources.ResourceUsage;
import io.nbench.stats.ErrorCounts;
import io.nbench.stats.IntervalResult;
import io.nbench.stats.IterationResult;
import io.nbench.stats.LatencyHistograms;
import io.nbench.stats.OpenLoopFigures;
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
import java.util.concurrent.TimeoutException;
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

    LoadSpec spec;
    boolean ioDriver;
    final Verify verify;
    final ErrorCounts errors = new ErrorCounts();
    final LongAdder lateResponses = new LongAdder();
    /** FIFO echo connections reopened after a timeout. */
    final LongAdder reconnects = new LongAdder();
    private final Map<ErrorKind, String> firstErrors = new ConcurrentHashMap<>();

    volatile boolean closing;
    volatile boolean stopSending;
    private volatile String abortReason;
    private volatile AbortCause abortCause;
    /** Errors that say the server is not answering, beyond which the run stops; -1 = no limit. */
    private long errorBudget = -1;
    private String errorBudgetLabel;
    private volatile boolean interrupted;
    private volatile boolean finished;

    private final ThreadLocal<ThreadContext> contexts = new ThreadLocal<>();
    private final List<ThreadContext> allContexts = new CopyOnWriteArrayList<>();
    private final AtomicInteger liveConnections = new AtomicInteger();
    private final RunListener listener;
    private volatile Thread coordinator;

    private LoadConnection[] connections = new LoadConnection[0];
    private Sender[] senders = new Sender[0];
    private Phaser phaser;
    private Thread watchdog;

    public BenchmarkRun(LoadSpec spec, RunListener listener) {
        this.spec = spec;
        this.ioDriver = spec.driver() == Driver.IO && !spec.openLoop();
        this.verify = spec.verify();
        this.listener = listener;
    }

    /**
     * Runs the whole benchmark. Returns the result even when the run was aborted or interrupted midway
     * (whatever was measured is in it); throws {@link RunFailure} only if it could not start.
     */
    public RunResult execute(ClientTransport transport, InetSocketAddress remote) throws RunFailure {
        coordinator = Thread.currentThread();
        spec = spec.effectiveFor(transport);
        ioDriver = spec.driver() == Driver.IO && !spec.openLoop();
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
                errors.snapshot(), lateResponses.sum(), first, abortReason, abortCause, reconnects.sum(), interrupted,
                runStartEpochMillis);
    }

    /**
     * Stops the run as soon as more than {@code limit} errors say the server is not answering (timeout,
     * read, write, connect): past that the verdict cannot change, and a stalled server would otherwise
     * keep the run going as each timeout frees a slot for the next message. Rejections and integrity
     * errors are answers and leave the run going. {@code label} is the limit as the user gave it.
     */
    public void abortWhenErrorsExceed(long limit, String label) {
        this.errorBudget = limit;
        this.errorBudgetLabel = label;
    }

    /** Stops the run from another thread (SIGINT): the current iteration is cut and reported. */
    public void interrupt() {
        interrupted = true;
        abort(AbortCause.INTERRUPTED, "interrupted");
    }

    // ---- set-up -----------------------------------------------------------------------------------

    private ClientTransport clientTransport;
    private InetSocketAddress remote;

    /** Churn: reconnects {@code c} on the calling sender thread, timing the connect. */
    void reconnect(LoadConnection c) {
        c.reconnect(clientTransport, remote, contextFor(Thread.currentThread()));
    }

    private void connect(ClientTransport transport, InetSocketAddress remote) throws RunFailure {
        this.clientTransport = transport;
        this.remote = remote;
        LoadConnection[] cs = new LoadConnection[spec.connections()];
        long rampStart = System.nanoTime();
        for (int i = 0; i < cs.length; i++) {
            if (spec.connectRate() > 0) {
                // Ramp-up: connection i opens no earlier than i / rate after the first.
                long due = rampStart + (long) (i * 1e9 / spec.connectRate());
                long wait;
                while ((wait = due - System.nanoTime()) > 0 && abortReason == null) {
                    LockSupport.parkNanos(wait);
                }
            }
            RequestTemplate template = RequestTemplate.of(spec.protocol(), spec.size(), spec.responseSize(), i + 1L);
            LoadConnection c = new LoadConnection(i, this, template, spec.permits(), spec.measure() == Measure.SEND,
                    spec.openLoop());
            // Counted live before the connect returns: the server may close it at once.
            liveConnections.incrementAndGet();
            try {
                c.transport = i == 0 ? connectFirst(transport, remote, template, c)
                        : transport.connect(remote, template, c.link());
            } catch (IOException e) {
                liveConnections.decrementAndGet();
                connections = java.util.Arrays.copyOf(cs, i);
                throw new RunFailure("cannot connect to " + describe(remote) + " (connection " + (i + 1) + " of "
                        + cs.length + "): " + e.getMessage(), e);
            }
            cs[i] = c;
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
                return transport.connect(remote, template, c.link());
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

    /**
     * Threads driver: thread t owns connections t, t+T, ... or, with fewer connections, shares one.
     * Open loop: min(T, C) pacers, pacer p paces connections p, p+P, ...
     */
    private void startSenders() {
        int threads = spec.openLoop() ? Math.min(spec.threads(), connections.length) : spec.threads();
        int conns = connections.length;
        senders = new Sender[threads];
        List<List<Sender>> waitersOf = new ArrayList<>();
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
            LoadConnection[] owned = mine.toArray(new LoadConnection[0]);
            senders[t] = spec.openLoop() ? new PacerThread(this, t, owned) : new SenderThread(this, t, owned);
            for (LoadConnection c : mine) {
                waitersOf.get(c.index).add(senders[t]);
            }
        }
        for (int c = 0; c < conns; c++) {
            connections[c].waiters = waitersOf.get(c).toArray(new Sender[0]);
        }
        phaser = new Phaser(threads + 1);
        for (Sender s : senders) {
            s.start();
        }
    }

    /**
     * The watchdog: every tenth of the timeout it fails messages past the timeout (reopening FIFO echo
     * connections that lost a reply), and stops the run when the server has gone silent or the errors are
     * past the budget. A stalled server must end the run: otherwise each timeout frees a slot, the next
     * message goes out, and the run goes on for ever.
     */
    private void startWatchdog() {
        long period = Math.max(1_000_000L, Math.min(100_000_000L, spec.timeoutNanos() / 10));
        long started = System.nanoTime();
        watchdog = new Thread(() -> {
            ThreadContext ctx = contextFor(Thread.currentThread());
            while (!closing) {
                LockSupport.parkNanos(period);
                long now = System.nanoTime();
                int expired = 0;
                for (LoadConnection c : connections) {
                    // Closed connections too: a message published as the connection died is freed here.
                    expired += c.expire(now, spec.timeoutNanos(), ctx);
                }
                if (expired > 0 && abortReason == null) {
                    checkSilence(now, started);
                }
                for (LoadConnection c : connections) {
                    if (c.reopenNeeded && !closing && abortReason == null && c.reopen(clientTransport, remote, ctx)) {
                        reconnects.increment();
                        listener.onReconnect();
                    }
                }
                checkErrorBudget();
            }
        }, "nbench-timeout-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
    }

    /** Messages timed out just now: if no connection has heard from the server for the timeout, stop. */
    private void checkSilence(long now, long started) {
        long last = started;
        for (LoadConnection c : connections) {
            last = Math.max(last, c.lastAnswer());
        }
        long silent = now - last;
        if (silent > spec.timeoutNanos()) {
            abort(AbortCause.STALLED, "no response from the server on any of the " + connections.length
                    + " connection(s) for " + TimeUnit.NANOSECONDS.toMillis(silent) + " ms (--timeout "
                    + TimeUnit.NANOSECONDS.toMillis(spec.timeoutNanos()) + " ms): the server is stalled or "
                    + "does not answer; check that it runs and is not stopped or overloaded");
        }
    }

    private void checkErrorBudget() {
        if (errorBudget < 0 || abortReason != null) {
            return;
        }
        ErrorCounts.Snapshot e = errors.snapshot();
        long n = e.get(ErrorKind.TIMEOUT) + e.get(ErrorKind.READ) + e.get(ErrorKind.WRITE) + e.get(ErrorKind.CONNECT);
        if (n > errorBudget) {
            abort(AbortCause.TOO_MANY_ERRORS, n + " errors (" + e.nonZero().entrySet().stream()
                    .map(x -> x.getKey().label() + "=" + x.getValue()).collect(java.util.stream.Collectors.joining(", "))
                    + ") > --max-errors " + errorBudgetLabel + ": the server is not answering; raise --max-errors to "
                    + "tolerate errors");
        }
    }

    // ---- iterations -------------------------------------------------------------------------------

    private int total() {
        return spec.warmup() + spec.iterations();
    }

    private void runCounted(List<IterationResult> results) {
        for (int i = 0; i < total() && abortReason == null; i++) {
            long start = beginIteration(i);
            if (ioDriver) {
                kick(true);
            } else {
                awaitPhase(); // senders start
                awaitPhase(); // senders have sent their quota
            }
            drain();
            endIteration(results, System.nanoTime(), start, abortReason != null);
        }
    }

    private void runTimed(List<IterationResult> results) {
        long boundary = beginIteration(0);
        long from = boundary;
        if (ioDriver) {
            kick(false);
        } else {
            awaitPhase();
        }
        for (int i = 0; i < total(); i++) {
            if (i > 0) {
                beginIteration(i, from);
            }
            boundary += spec.iterationNanos(); // nominal boundaries never drift
            long now;
            while ((now = System.nanoTime()) < boundary && abortReason == null) {
                LockSupport.parkNanos(Math.min(boundary, nextTick) - now);
                if (nextTick < boundary) {
                    tick(); // a slice due at the boundary itself is closed by endIteration, not twice
                }
            }
            // The slice ends when the coordinator flips it (a little after the nominal boundary), so
            // wall time, messages and sends are all counted over the same span.
            boolean cut = abortReason != null;
            endIteration(results, now, from, cut);
            from = now;
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
            awaitPhase();
        }
        drain();
    }

    // ---- iteration and interval bookkeeping (coordinator thread only) ------------------------------

    private static final long TICK_NANOS = 1_000_000_000L;
    private long runStart;
    private long runStartEpochMillis = System.currentTimeMillis();
    private int iteration;
    private Histogram iterationHistogram;
    private Histogram iterationUncorrected;
    private Histogram iterationLag;
    private Histogram iterationConnects;
    private ErrorCounts.Snapshot iterationErrors;
    private long iterationClamped;
    private ResourceSnapshot iterationResources;
    private long intervalStart;
    private ErrorCounts.Snapshot intervalErrors;
    private long nextTick = Long.MAX_VALUE;

    private long beginIteration(int i) {
        return beginIteration(i, System.nanoTime());
    }

    private long beginIteration(int i, long start) {
        if (i == 0) {
            runStart = start;
            runStartEpochMillis = System.currentTimeMillis() - (System.nanoTime() - start) / 1_000_000L;
            listener.onStarted(runStartEpochMillis);
        }
        iteration = i;
        iterationHistogram = LatencyHistograms.newHistogram();
        iterationUncorrected = spec.openLoop() ? LatencyHistograms.newHistogram() : null;
        iterationLag = spec.openLoop() ? LatencyHistograms.newHistogram() : null;
        iterationConnects = spec.churn() ? LatencyHistograms.newHistogram() : null;
        iterationErrors = errors.snapshot();
        iterationClamped = clamped();
        iterationResources = ResourceSnapshot.take();
        intervalStart = start;
        intervalErrors = iterationErrors;
        nextTick = start + TICK_NANOS;
        return start;
    }

    /** Called by every coordinator wait loop: closes the current one-second slice when it is due. */
    private void tick() {
        long now = System.nanoTime();
        if (now >= nextTick) {
            closeInterval(now);
        }
    }

    private void closeInterval(long end) {
        Histogram h = LatencyHistograms.newHistogram();
        for (ThreadContext c : allContexts) {
            c.drainInto(h, iterationUncorrected, iterationLag);
            if (iterationConnects != null) {
                c.drainConnectsInto(iterationConnects);
            }
            if (!c.owner.isAlive()) {
                // Its thread is gone (a churned connection's reader): everything it recorded is in now
                // (a terminated thread's writes are visible to whoever sees it dead), so let it go.
                retiredClamped += c.clamped.get();
                allContexts.remove(c);
            }
        }
        iterationHistogram.add(h);
        ErrorCounts.Snapshot now = errors.snapshot();
        boolean warmup = iteration < spec.warmup();
        listener.onInterval(new IntervalResult(index(iteration), warmup, intervalStart - runStart, end - runStart, h,
                now.minus(intervalErrors)));
        intervalErrors = now;
        intervalStart = end;
        nextTick = end + TICK_NANOS;
    }

    private int index(int i) {
        return i < spec.warmup() ? i + 1 : i - spec.warmup() + 1;
    }

    private void endIteration(List<IterationResult> results, long end, long start, boolean partial) {
        closeInterval(end);
        long sent = 0;
        long hits = 0;
        if (spec.openLoop()) {
            for (Sender s : senders) {
                long[] d = ((PacerThread) s).takeCounts();
                sent += d[0];
                hits += d[1];
            }
        }
        ResourceUsage usage = ResourceUsage.between(iterationResources, ResourceSnapshot.take());
        OpenLoopFigures open = spec.openLoop()
                ? new OpenLoopFigures(spec.rate(), sent, hits, iterationUncorrected, iterationLag) : null;
        IterationResult r = new IterationResult(index(iteration), iteration < spec.warmup(),
                iterationHistogram.getTotalCount(), end - start, spec.size(), iterationHistogram,
                errors.snapshot().minus(iterationErrors), clamped() - iterationClamped, partial, usage, open,
                iterationConnects);
        results.add(r);
        listener.onIteration(r);
    }

    /** Arrives at the senders' barrier and waits for them, closing one-second slices meanwhile. */
    private void awaitPhase() {
        int phase = phaser.arrive();
        for (;;) {
            long wait = Math.max(1, nextTick - System.nanoTime());
            try {
                phaser.awaitAdvanceInterruptibly(phase, wait, TimeUnit.NANOSECONDS);
                return;
            } catch (TimeoutException e) {
                tick();
            } catch (InterruptedException e) {
                abort(AbortCause.INTERRUPTED, "interrupted");
                Thread.currentThread().interrupt();
                return;
            }
        }
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

    /**
     * Waits until every connection has all its permits back. The deadline runs from the moment a
     * connection has nothing left to send (with the io driver the I/O threads may still be sending its
     * quota); the watchdog fails whatever outlives the timeout, so this ends. After SIGINT or an abort it
     * does not wait for outstanding messages: the run is over, and a peer that broke the protocol or
     * stalled would only hold the report back.
     */
    private void drain() {
        long grace = spec.timeoutNanos() + TimeUnit.SECONDS.toNanos(2);
        long deadline = System.nanoTime() + grace;
        Thread me = Thread.currentThread();
        for (LoadConnection c : connections) {
            c.drainWaiter = me;
            try {
                while (!c.drained() && abortReason == null) {
                    long now = System.nanoTime();
                    if (c.remaining.get() > 0 && !c.dead) {
                        deadline = now + grace; // still sending its quota: the clock has not started
                    }
                    if (now > deadline) {
                        abort(AbortCause.OUTSTANDING, "responses still outstanding " + TimeUnit.NANOSECONDS.toMillis(grace)
                                + " ms after the last send");
                        return;
                    }
                    LockSupport.parkNanos(Math.max(1, Math.min(10_000_000L, nextTick - System.nanoTime())));
                    tick();
                }
            } finally {
                c.drainWaiter = null;
            }
        }
    }

    /** Clamped counts of contexts whose threads have ended. */
    private long retiredClamped;

    private long clamped() {
        long n = retiredClamped;
        for (ThreadContext c : allContexts) {
            n += c.clamped.get();
        }
        return n;
    }

    // ---- events from connections ------------------------------------------------------------------

    /**
     * Beyond this many connections, or with churn, recorders are packed: thread-per-connection transports
     * record on a thread of each connection (and churn starts new ones all the time).
     */
    static final int PACKED_ABOVE_CONNECTIONS = 32;

    ThreadContext contextFor(Thread thread) {
        ThreadContext c = contexts.get();
        if (c == null) {
            boolean packed = spec.connections() > PACKED_ABOVE_CONNECTIONS || spec.churn();
            c = new ThreadContext(thread, spec.openLoop(), spec.churn(), packed);
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

    /**
     * A connection is closed for good. When it was the last: if no request was ever answered, the server
     * refused what it was sent (an nbench server closes a connection only on a request it will not take:
     * one over its --max-frame, or bytes that are not a framed request, such as an echo client's);
     * otherwise it went away.
     */
    void connectionLost(LoadConnection c) {
        if (liveConnections.decrementAndGet() == 0) {
            if (!anyAnswered()) {
                abort(AbortCause.REFUSED_REQUEST, refusedMessage());
                return;
            }
            String cause = firstErrors.getOrDefault(ErrorKind.READ, firstErrors.get(ErrorKind.PROTOCOL));
            abort(AbortCause.CONNECTIONS_CLOSED, "all " + connections.length + " connections were closed by the server"
                    + (cause != null ? " (" + cause + ")" : "") + ": is the server still running?");
        }
    }

    private boolean anyAnswered() {
        for (LoadConnection c : connections) {
            if (c != null && c.lastAnswer() != 0) {
                return true;
            }
        }
        return false;
    }

    private String refusedMessage() {
        String closed = "the server closed every connection after the first request without answering any";
        if (spec.protocol() == io.nbench.protocol.Protocol.ECHO) {
            return "protocol mismatch: " + closed + ": it is not an echo server; if it is an nbench server "
                    + "started without --protocol echo, drop --protocol echo";
        }
        long largest = Math.max(spec.size(), spec.responseSize());
        return closed + ": likely it refuses requests this large (payload " + spec.size() + " bytes, response "
                + spec.responseSize() + " bytes): start the server with --max-frame " + largest + " or more";
    }

    /** The peer does not speak the protocol: counted, and the run stops at once (nothing can be measured). */
    void protocolMismatch(AbortCause cause, String message) {
        if (closing) {
            return;
        }
        errors.add(ErrorKind.PROTOCOL);
        noteError(ErrorKind.PROTOCOL, message);
        abort(cause, message);
    }

    void abort(AbortCause cause, String reason) {
        if (abortReason == null) {
            abortCause = cause;
            abortReason = reason;
        }
        stopSending = true;
        for (LoadConnection c : connections) {
            if (c != null) {
                c.remaining.set(0); // the io driver sends no more
            }
        }
        for (Sender s : senders) {
            LockSupport.unpark(s); // parked senders and pacers see stopSending at once
        }
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
        for (Sender s : senders) {
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
