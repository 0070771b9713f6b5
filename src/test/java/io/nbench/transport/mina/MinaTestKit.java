package io.nbench.transport.mina;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.load.BenchmarkRun;
import io.nbench.load.Driver;
import io.nbench.load.LoadSpec;
import io.nbench.load.Measure;
import io.nbench.load.RunListener;
import io.nbench.load.RunResult;
import io.nbench.load.Verify;
import io.nbench.protocol.Protocol;
import io.nbench.testkit.Runs;
import io.nbench.transport.ClientSettings;
import io.nbench.transport.ClientTransport;
import io.nbench.transport.OptionValues;
import io.nbench.transport.RunningServer;
import io.nbench.transport.ServerEvents;
import io.nbench.transport.ServerSettings;
import io.nbench.transport.SocketSettings;
import io.nbench.transport.Transport;
import io.nbench.transport.TransportRegistry;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/** Small helpers for the MINA tests: start servers and clients, run the engine, check for leftovers. */
final class MinaTestKit {

    static final int MAX_FRAME = 16 * 1024 * 1024;
    static final List<Double> PERCENTILES = List.of(50.0, 99.0, 100.0);

    private MinaTestKit() {
    }

    static Transport transport(String name) {
        return TransportRegistry.load().get(name);
    }

    static OptionValues options(Transport t, Map<String, String> given) {
        return OptionValues.resolve(t.options(), given);
    }

    static SocketSettings socket(int ioThreads) {
        return new SocketSettings(ioThreads, true, 0, 0);
    }

    static RunningServer server(String name, Protocol protocol, ServerEvents events, Map<String, String> opts)
            throws Exception {
        Transport t = transport(name);
        return t.startServer(new ServerSettings(new InetSocketAddress("127.0.0.1", 0), protocol, socket(1), MAX_FRAME,
                options(t, opts)), events);
    }

    static ClientTransport client(String name, Protocol protocol, boolean notifyWritten, Map<String, String> opts)
            throws Exception {
        Transport t = transport(name);
        return t.newClient(new ClientSettings(protocol, socket(1), Duration.ofSeconds(5), notifyWritten, MAX_FRAME,
                options(t, opts)));
    }

    /** A closed-loop workload built with the shared test kit, so engine additions keep their defaults. */
    static LoadSpec spec(int threads, int connections, long msgs, int warmup, int iterations, int size, int responseSize,
                         int window, Measure measure, Driver driver, Protocol protocol) {
        return Runs.workload().threads(threads).connections(connections).msgs(msgs).warmup(warmup)
                .iterations(iterations).size(size).responseSize(responseSize).window(window).measure(measure)
                .driver(driver).protocol(protocol).verify(Verify.FULL).spec();
    }

    /** Runs the engine and checks the run was clean and counted every message exactly. */
    static RunResult runClean(ClientTransport client, InetSocketAddress remote, LoadSpec spec) throws Exception {
        RunResult r = new BenchmarkRun(spec, RunListener.NONE).execute(client, remote);
        String context = spec + " errors=" + r.errors().nonZero() + " first=" + r.firstErrors();
        assertNull(r.abortReason(), context);
        assertFalse(r.interrupted(), context);
        assertEquals(0, r.errors().total(), context);
        assertEquals(0, r.lateResponses(), context);
        assertEquals(spec.messagesPerIteration() * spec.iterations(), r.summary().messages(), context);
        assertEquals(spec.warmup() + spec.iterations(), r.iterations().size(), context);
        return r;
    }

    /** Waits (bounded) for a condition that another thread makes true. */
    static boolean await(BooleanSupplier condition, long millis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(5);
        }
        return true;
    }

    /** Live threads now; servers shared by other test classes (testkit.TestServers) run all along. */
    static Set<Thread> liveThreads() {
        return new HashSet<>(Thread.getAllStackTraces().keySet());
    }

    /** MINA threads (as MINA and nbench name them) alive now that were not alive in {@code before}. */
    static List<String> newMinaThreads(Set<Thread> before) {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).filter(t -> !before.contains(t))
                .map(Thread::getName)
                .filter(n -> n.startsWith("nbench-mina") || n.startsWith("NioProcessor") || n.startsWith("NioSocket")
                        || n.startsWith("VmPipe"))
                .sorted().toList();
    }

    /** Asserts (waiting a bounded time for threads to finish) that no MINA thread started since {@code before}. */
    static void assertNoNewMinaThreads(Set<Thread> before) throws InterruptedException {
        assertTrue(await(() -> newMinaThreads(before).isEmpty(), 5000), () -> "left running: " + newMinaThreads(before));
    }

    /** Counts what a server reports. */
    static final class CountingEvents implements ServerEvents {
        final AtomicInteger opened = new AtomicInteger();
        final AtomicInteger closed = new AtomicInteger();
        final AtomicInteger served = new AtomicInteger();
        final AtomicInteger protocolErrors = new AtomicInteger();
        final AtomicInteger echoedBytes = new AtomicInteger();
        volatile String lastError;

        @Override
        public boolean connectionOpened() {
            opened.incrementAndGet();
            return true;
        }

        @Override
        public void connectionClosed() {
            closed.incrementAndGet();
        }

        @Override
        public void requestServed(int requestBytes, int responseBytes) {
            served.incrementAndGet();
        }

        @Override
        public void protocolError(String remote, String message) {
            lastError = message;
            protocolErrors.incrementAndGet();
        }

        @Override
        public void echoed(int bytes) {
            echoedBytes.addAndGet(bytes);
        }
    }
}
