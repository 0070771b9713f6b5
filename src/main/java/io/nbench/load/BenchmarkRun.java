package io.nbench.load;

import io.nbench.transport.support.Threads;
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
import io.nbench.transport.TransportFailure;
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
 * One client run against one server, closed loop (each response lets the next message go) or open loop
 * (messages sent on a schedule at {@code --rate}): connects, runs warmup and measured iterations with the
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

    /** Every timestamp and every wait for a moment in time; tests move it by hand. */
    final NanoClock clock;
    /** Open loop: intended time of the first message of the iteration starting (the schedules' origin). */
    volatile long scheduleStart;

    public BenchmarkRun(LoadSpec spec, RunListener listener) {
        this(spec, listener, NanoClock.SYSTEM);
    }

    BenchmarkRun(LoadSpec spec, RunListener listener, NanoClock clock) {
        this.spec = spec;
        this.ioDriver = spec.driver() == Driver.IO && !spec.openLoop();
        this.verify = spec.verify();
        this.listener = listener;
        this.clock = clock;
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
        String shortage = FileDescriptors.shortage(cs.length);
        if (shortage != null) {
            connections = new LoadConnection[0];
            throw new RunFailure("cannot connect to " + describe(remote) + ": " + shortage, null);
        }
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
                        + cs.length + "): " + (FileDescriptors.exhausted(e) ? FileDescriptors.exhaustedMessage(cs.length)
                        : e.getMessage()), e);
            }
            cs[i] = c;
        }
        connections = cs;
    }

    /**
     * The first connection retries a refused connect until the connect timeout passes: a client started together
     * with its server ({@code nbench server & nbench client}) waits for it to listen.
     */
    private io.nbench.transport.ClientConnection connectFirst(ClientTransport transport, InetSocketAddress remote,
            RequestTemplate template, LoadConnection c) throws IOException {
        long deadline = System.nanoTime() + spec.connectTimeoutNanos();
        for (;;) {
            try {
                return transport.connect(remote, template, c.link());
            } catch (IOException e) {
                boolean refused = e instanceof TransportFailure f && f.kind() == TransportFailure.Kind.REFUSED;
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
        long started = clock.nanoTime();
        watchdog = new Thread(() -> {
            ThreadContext ctx = contextFor(Thread.currentThread());
            while (!closing) {
                LockSupport.parkNanos(period);
                long now = clock.nanoTime();
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
            endIteration(results, start, abortReason != null);
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
                beginIteration(i, from, lastCut); // back to back: it starts where the last one was cut
            }
            boundary += spec.iterationNanos(); // nominal boundaries never drift
            long now;
            while ((now = clock.nanoTime()) < boundary && abortReason == null) {
                clock.park(this, Math.min(boundary, nextTick) - now);
                if (nextTick < boundary) {
                    tick(); // a slice due at the boundary itself is closed by endIteration, not twice
                }
            }
            // The iteration ends a little after the nominal boundary, when endIteration cuts it: its
            // wall time ends at the instant every count is read.
            boolean cut = abortReason != null;
            from = endIteration(results, from, cut);
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
        return beginIteration(i, 0, null);
    }

    /**
     * @param from the cut that ended the previous iteration, which starts this one back to back at
     *             {@code start}; null to start now, once the set-up (allocations, /proc) is done
     */
    private long beginIteration(int i, long start, Cut from) {
        iteration = i;
        iterationHistogram = LatencyHistograms.newHistogram();
        iterationUncorrected = spec.openLoop() ? LatencyHistograms.newHistogram() : null;
        iterationLag = spec.openLoop() ? LatencyHistograms.newHistogram() : null;
        iterationConnects = spec.churn() ? LatencyHistograms.newHistogram() : null;
        iterationResources = ResourceSnapshot.take();
        if (from == null) {
            start = clock.nanoTime();
        }
        iterationErrors = from != null ? from.errors() : errors.snapshot();
        iterationClamped = from != null ? from.clamped() : clamped();
        intervalStart = start;
        intervalErrors = iterationErrors;
        nextTick = start + TICK_NANOS;
        // Count-based: every iteration's schedules start here; time-based: the first one's, once. Either
        // way the sends due in an iteration are counted from its own start, whenever a pacer wakes.
        scheduleStart = start;
        if (i == 0) {
            runStart = start;
            runStartEpochMillis = System.currentTimeMillis() - (clock.nanoTime() - start) / 1_000_000L;
            listener.onStarted(runStartEpochMillis);
        }
        return start;
    }

    /** Called by every coordinator wait loop: closes the current one-second slice when it is due. */
    private void tick() {
        if (clock.nanoTime() >= nextTick) {
            closeInterval(cut(false));
        }
    }

    /**
     * Every count of the run at one instant: the recorders' intervals (completions, latencies, connects),
     * errors, clamped values, and in the open loop the pacers' sends and in-flight-cap waits. Taken
     * first at a boundary, within microseconds, before anything slow (merging histograms, /proc,
     * listeners that print or write files): whatever happens after the boundary belongs to the next
     * iteration or slice.
     */
    private record Cut(long at, ThreadContext[] contexts, ErrorCounts.Snapshot errors, long clamped, long sent,
                       long hits) {
    }

    /**
     * @param sends read the pacers' counters too: only at an iteration's end, when no pacer is replacing
     *              its schedules (count-based pacers do that at the start of each iteration)
     */
    private Cut cut(boolean sends) {
        ThreadContext[] cs = allContexts.toArray(new ThreadContext[0]);
        for (ThreadContext c : cs) {
            c.flip();
        }
        ErrorCounts.Snapshot e = errors.snapshot();
        long clampedNow = clamped();
        long sent = 0;
        long hits = 0;
        if (sends && spec.openLoop()) {
            for (Sender s : senders) {
                long[] d = ((PacerThread) s).takeCounts();
                sent += d[0];
                hits += d[1];
            }
        }
        // The instant is read last, right after the sends: the rate check divides one by the other.
        return new Cut(clock.nanoTime(), cs, e, clampedNow, sent, hits);
    }

    /** Closes the slice with what {@code cut} took at its end. */
    private void closeInterval(Cut cut) {
        long end = cut.at();
        Histogram h = LatencyHistograms.newHistogram();
        for (ThreadContext c : cut.contexts()) {
            c.addFlipped(h, iterationUncorrected, iterationLag, iterationConnects);
            if (!c.owner.isAlive()) {
                // Its thread is gone (a churned connection's reader): everything it recorded is in now
                // (a terminated thread's writes are visible to whoever sees it dead), so let it go.
                retiredClamped += c.clamped.get();
                allContexts.remove(c);
            }
        }
        iterationHistogram.add(h);
        boolean warmup = iteration < spec.warmup();
        listener.onInterval(new IntervalResult(index(iteration), warmup, intervalStart - runStart, end - runStart, h,
                cut.errors().minus(intervalErrors)));
        intervalErrors = cut.errors();
        intervalStart = end;
        nextTick = end + TICK_NANOS;
    }

    private int index(int i) {
        return i < spec.warmup() ? i + 1 : i - spec.warmup() + 1;
    }

    private Cut lastCut;

    /** Ends the iteration that started at {@code start}; returns the instant it ended. */
    private long endIteration(List<IterationResult> results, long start, boolean partial) {
        Cut cut = cut(true); // first: every count at the iteration's end
        lastCut = cut;
        long end = cut.at();
        closeInterval(cut);
        ResourceUsage usage = ResourceUsage.between(iterationResources, ResourceSnapshot.take());
        OpenLoopFigures open = spec.openLoop()
                ? new OpenLoopFigures(spec.rate(), cut.sent(), cut.hits(), iterationUncorrected, iterationLag) : null;
        IterationResult r = new IterationResult(index(iteration), iteration < spec.warmup(),
                iterationHistogram.getTotalCount(), end - start, spec.size(), iterationHistogram,
                cut.errors().minus(iterationErrors), cut.clamped() - iterationClamped, partial, usage, open,
                iterationConnects);
        results.add(r);
        listener.onIteration(r);
        return end;
    }

    /** Arrives at the senders' barrier and waits for them, closing one-second slices meanwhile. */
    private void awaitPhase() {
        int phase = phaser.arrive();
        for (;;) {
            long wait = Math.max(1, nextTick - clock.nanoTime());
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
                    long now = System.nanoTime(); // the grace is a safety net in real time
                    if (c.remaining.get() > 0 && !c.dead) {
                        deadline = now + grace; // still sending its quota: the clock has not started
                    }
                    if (now > deadline) {
                        abort(AbortCause.OUTSTANDING, "responses still outstanding " + TimeUnit.NANOSECONDS.toMillis(grace)
                                + " ms after the last send");
                        return;
                    }
                    LockSupport.parkNanos(Math.max(1, Math.min(10_000_000L, nextTick - clock.nanoTime())));
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

    /**
     * The first recording threads always get full histograms, whatever the connection count: with an
     * event-loop transport they are the few I/O threads that record every message of the run, and a
     * packed histogram costs them about 10 ns more per value (a tenth of the I/O thread's time at
     * 50 connections x window 16). Eight full sets cost about 4 MiB; later threads, which only a
     * thread-per-connection transport has, get packed ones.
     */
    static final int FULL_RECORDERS = 8;

    /** Whether a new recording thread, after {@code existing} others, gets packed histograms. */
    static boolean packedRecorder(int connections, boolean churn, int existing) {
        return churn || (connections > PACKED_ABOVE_CONNECTIONS && existing >= FULL_RECORDERS);
    }

    ThreadContext contextFor(Thread thread) {
        ThreadContext c = contexts.get();
        if (c == null) {
            boolean packed = packedRecorder(spec.connections(), spec.churn(), allContexts.size());
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
