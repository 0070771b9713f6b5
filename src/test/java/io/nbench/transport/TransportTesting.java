package io.nbench.transport;

import com.sun.management.ThreadMXBean;
import io.nbench.load.BenchmarkRun;
import io.nbench.load.Driver;
import io.nbench.load.LoadSpec;
import io.nbench.load.Measure;
import io.nbench.load.RunFailure;
import io.nbench.load.RunListener;
import io.nbench.load.RunResult;
import io.nbench.load.Verify;
import io.nbench.protocol.Protocol;
import io.nbench.server.runtime.BusinessExecutor;
import io.nbench.server.runtime.BusinessRuntime;
import io.nbench.server.runtime.WorkMode;
import io.nbench.testkit.Runs;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/** Starting real servers and clients of any transport on loopback, and running the engine between them. */
public final class TransportTesting {

    public static final InetSocketAddress ANY_PORT = new InetSocketAddress("127.0.0.1", 0);

    private TransportTesting() {
    }

    public static OptionValues defaults(Transport t) {
        return OptionValues.resolve(t.options(), Map.of());
    }

    public static SocketSettings socket() {
        return new SocketSettings(0, true, 0, 0);
    }

    public static RunningServer startServer(Transport t, Protocol protocol, ServerEvents events) throws IOException {
        return startServer(t, protocol, events, Map.of());
    }

    public static RunningServer startServer(Transport t, Protocol protocol, ServerEvents events, Map<String, String> options)
            throws IOException {
        return t.startServer(new ServerSettings(ANY_PORT, protocol, socket(), Vectors.MAX_FRAME,
                OptionValues.resolve(t.options(), options)), events);
    }

    /**
     * A framed server of {@code t} whose every request sleeps {@code work} on nbench's business pool of
     * {@code threads} threads and a queue of {@code queue} (a slow server, rejections when the queue is full);
     * closing it stops the pool too.
     */
    public static RunningServer startWithWork(Transport t, Duration work, int threads, int queue, ServerEvents events)
            throws IOException {
        BusinessRuntime runtime = new BusinessRuntime(work, WorkMode.SLEEP, new BusinessExecutor(threads, threads, queue));
        RunningServer server;
        try {
            server = t.startServer(new ServerSettings(ANY_PORT, Protocol.FRAMED, socket(), 1 << 20, defaults(t), null,
                    runtime), events);
        } catch (IOException | RuntimeException e) {
            runtime.close();
            throw e;
        }
        return new RunningServer() {
            @Override
            public InetSocketAddress address() {
                return server.address();
            }

            @Override
            public Map<String, String> effectiveConfig() {
                return server.effectiveConfig();
            }

            @Override
            public void close() {
                try (runtime) {
                    server.close();
                }
            }
        };
    }

    public static ClientTransport newClient(Transport t, Protocol protocol, boolean notifyWritten) throws IOException {
        return newClient(t, protocol, notifyWritten, Map.of());
    }

    public static ClientTransport newClient(Transport t, Protocol protocol, boolean notifyWritten,
                                            Map<String, String> options) throws IOException {
        return t.newClient(new ClientSettings(protocol, socket(), Duration.ofSeconds(5), notifyWritten,
                Vectors.MAX_FRAME, OptionValues.resolve(t.options(), options)));
    }

    /** One engine workload, small enough for a 2-core machine shared with other builds. */
    public record Case(Protocol protocol, int size, int responseSize, int window, Driver driver, Measure measure) {
        public LoadSpec spec(int threads, int connections, long msgs) {
            return Runs.workload().threads(threads).connections(connections).msgs(msgs).warmup(1).iterations(2)
                    .size(size).responseSize(responseSize).window(window).measure(measure).driver(driver)
                    .verify(Verify.FULL).protocol(protocol).spec();
        }

        @Override
        public String toString() {
            return protocol.label() + " size=" + size + (protocol == Protocol.FRAMED ? " response=" + responseSize : "")
                    + " window=" + window + " driver=" + driver.label() + " measure=" + measure.label();
        }
    }

    /**
     * Bytes the client's I/O threads (those whose names start with {@code ioThreadPrefix}) allocated during
     * one engine run of {@code c} with {@code connections} connections and {@code msgs} messages per thread
     * and iteration, the run checked to complete every message without an error. The threads are found by
     * name before and after: none found, or one gone during the run, fails rather than counting as 0 bytes.
     */
    public static long ioThreadBytesDuringRun(ClientTransport client, RunningServer server, Case c, int connections,
                                              long msgs, String ioThreadPrefix) throws Exception {
        ThreadMXBean threads =
                (ThreadMXBean) ManagementFactory.getThreadMXBean();
        Map<Long, Long> before = allocatedBytes(threads, ioThreadPrefix);
        RunResult r = new BenchmarkRun(c.spec(2, connections, msgs), RunListener.NONE).execute(client, server.address());
        Map<Long, Long> after = allocatedBytes(threads, ioThreadPrefix);
        if (after.isEmpty()) {
            throw new AssertionError("no " + ioThreadPrefix + " thread found to measure");
        }
        if (!after.keySet().containsAll(before.keySet())) {
            throw new AssertionError("an I/O thread ended during the run: " + before.keySet() + " before, "
                    + after.keySet() + " after");
        }
        if (r.errors().total() != 0 || r.summary().messages() != 2 * 2 * msgs) {
            throw new AssertionError("the run did not complete: " + r.summary().messages() + " of " + 2 * 2 * msgs
                    + " messages, " + r.errors().total() + " errors " + r.firstErrors() + ", aborted: " + r.abortReason());
        }
        return after.entrySet().stream().mapToLong(e -> e.getValue() - before.getOrDefault(e.getKey(), 0L)).sum();
    }

    private static Map<Long, Long> allocatedBytes(ThreadMXBean threads, String prefix) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith(prefix))
                .collect(Collectors.toMap(Thread::getId, t -> threads.getThreadAllocatedBytes(t.getId())));
    }

    /** The cases every client/server pair runs: both protocols, sizes 1, 100 and 100k, both drivers and measures. */
    public static List<Case> cases() {
        int k100 = 100 * 1024;
        return List.of(
                new Case(Protocol.FRAMED, 1, 1, 1, Driver.THREADS, Measure.RTT),
                new Case(Protocol.FRAMED, 100, 100, 16, Driver.IO, Measure.RTT),
                new Case(Protocol.FRAMED, 100, 100, 1, Driver.IO, Measure.RTT),
                new Case(Protocol.FRAMED, k100, k100, 1, Driver.IO, Measure.RTT),
                new Case(Protocol.FRAMED, k100, k100, 16, Driver.THREADS, Measure.RTT),
                new Case(Protocol.FRAMED, 100, 17, 16, Driver.THREADS, Measure.RTT),
                new Case(Protocol.FRAMED, 1, 100, 1, Driver.IO, Measure.RTT),
                new Case(Protocol.FRAMED, 100, 0, 16, Driver.THREADS, Measure.SEND),
                new Case(Protocol.FRAMED, 1, 0, 1, Driver.IO, Measure.SEND),
                new Case(Protocol.FRAMED, k100, 0, 16, Driver.IO, Measure.SEND),
                new Case(Protocol.FRAMED, 100, 100, 16, Driver.THREADS, Measure.SEND),
                new Case(Protocol.ECHO, 1, 1, 1, Driver.IO, Measure.RTT),
                new Case(Protocol.ECHO, 1, 1, 16, Driver.THREADS, Measure.RTT),
                new Case(Protocol.ECHO, 100, 100, 16, Driver.THREADS, Measure.RTT),
                new Case(Protocol.ECHO, 100, 100, 16, Driver.IO, Measure.SEND),
                new Case(Protocol.ECHO, k100, k100, 16, Driver.IO, Measure.RTT),
                new Case(Protocol.ECHO, k100, k100, 1, Driver.THREADS, Measure.RTT));
    }

    /** Runs {@code c} with the given client against a fresh server and returns the engine's result. */
    public static RunResult run(Transport clientTransport, Transport serverTransport, Case c, int threads,
                                int connections, long msgs) throws IOException, RunFailure {
        return run(clientTransport, serverTransport, c, threads, connections, msgs, Map.of());
    }

    /** As {@link #run}, with {@code -O} options given to both sides (each takes its own keys). */
    public static RunResult run(Transport clientTransport, Transport serverTransport, Case c, int threads,
                                int connections, long msgs, Map<String, String> options) throws IOException, RunFailure {
        try (RunningServer server = startServer(serverTransport, c.protocol(), ServerEvents.NONE, options);
             ClientTransport client = newClient(clientTransport, c.protocol(), c.measure() == Measure.SEND, options)) {
            return new BenchmarkRun(c.spec(threads, connections, msgs), RunListener.NONE).execute(client, server.address());
        }
    }

    /** Live platform threads whose name starts with {@code prefix} (virtual threads are not listed by the JVM). */
    public static Set<Thread> threadsNamed(String prefix) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.isAlive() && t.getName().startsWith(prefix))
                .collect(Collectors.toSet());
    }

    /** The threads named {@code prefix} alive now that were not in {@code before} (other tests share servers). */
    public static Set<String> newThreadsNamed(String prefix, Set<Thread> before) {
        Set<Thread> now = threadsNamed(prefix);
        now.removeAll(before);
        // A pool's worker can still be alive for a moment after its pool reported termination: wait for
        // each to end (bounded), then report those that did not.
        for (Thread t : now) {
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return now.stream().filter(Thread::isAlive).map(Thread::getName).collect(Collectors.toSet());
    }

    /** Server events counted for assertions; protocol errors and closes can be awaited. */
    public static final class CountingEvents implements ServerEvents {
        public final AtomicInteger opened = new AtomicInteger();
        public final AtomicInteger served = new AtomicInteger();
        /** The bytes of every request received (answered at once or later), as the server counted them. */
        public final AtomicLong requestBytes = new AtomicLong();
        public final Semaphore closed = new Semaphore(0);
        public final Semaphore protocolErrors = new Semaphore(0);
        public volatile String lastError;
        public final AtomicInteger idleClosed = new AtomicInteger();
        /** One permit per request answered 'rejected', per processing time and per queue wait reported. */
        public final Semaphore rejected = new Semaphore(0);
        public final Semaphore processed = new Semaphore(0);
        public final Semaphore queueWaits = new Semaphore(0);
        /** The shortest processing time reported, in nanoseconds. */
        public final AtomicLong minProcessed =
                new AtomicLong(Long.MAX_VALUE);

        /** One permit per request received to be answered later (pool, timer, work), and per request dropped. */
        public final Semaphore received = new Semaphore(0);
        public final Semaphore dropped = new Semaphore(0);
        /** One permit per request answered later (requestAnswered): its response was written just before. */
        public final Semaphore answered = new Semaphore(0);
        /** Requests received and not yet answered, rejected or dropped; the most there were at once. */
        public final AtomicInteger inProgress = new AtomicInteger();
        public final AtomicInteger maxInProgress = new AtomicInteger();
        /** The threads that handed answered requests' responses on (requestAnswered's callers). */
        public final Set<String> answeringThreads = ConcurrentHashMap.newKeySet();

        @Override
        public void requestReceived(int requestBytes) {
            this.requestBytes.addAndGet(requestBytes);
            maxInProgress.accumulateAndGet(inProgress.incrementAndGet(), Math::max);
            received.release();
        }

        @Override
        public void requestsDropped(int count) {
            inProgress.addAndGet(-count);
            dropped.release(count);
        }

        @Override
        public void requestRejected(int responseBytes) {
            inProgress.decrementAndGet();
            rejected.release();
        }

        /** A request answered by the business pool: served, as one answered on its I/O thread. */
        @Override
        public void requestAnswered(int requestBytes, int responseBytes) {
            inProgress.decrementAndGet();
            answeringThreads.add(Thread.currentThread().getName());
            served.incrementAndGet();
            answered.release();
        }

        @Override
        public void processed(long nanos) {
            minProcessed.accumulateAndGet(nanos, Math::min);
            processed.release();
        }

        @Override
        public void queueWait(long nanos) {
            queueWaits.release();
        }

        @Override
        public void idleClosed() {
            idleClosed.incrementAndGet();
        }

        @Override
        public boolean connectionOpened() {
            opened.incrementAndGet();
            return true;
        }

        @Override
        public void connectionClosed() {
            closed.release();
        }

        @Override
        public void requestServed(int requestBytes, int responseBytes) {
            this.requestBytes.addAndGet(requestBytes);
            served.incrementAndGet();
        }

        @Override
        public void protocolError(String remote, String message) {
            lastError = message;
            protocolErrors.release();
        }

        /** The bytes of the answers to refused requests (400, 505, ...), counted in the server's bytes out. */
        public final AtomicLong refusalBytes = new AtomicLong();

        @Override
        public void refusalAnswered(int responseBytes) {
            refusalBytes.addAndGet(responseBytes);
        }

        /** The threads the echo handler ran on. */
        public final Set<String> echoThreads = ConcurrentHashMap.newKeySet();

        @Override
        public void echoed(int bytes) {
            echoThreads.add(Thread.currentThread().getName());
        }
    }
}
