package io.nbench.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.load.BenchmarkRun;
import io.nbench.load.Driver;
import io.nbench.load.Measure;
import io.nbench.load.RunListener;
import io.nbench.load.RunResult;
import io.nbench.protocol.Protocol;
import io.nbench.transport.ClientTransport;
import io.nbench.transport.RunningServer;
import io.nbench.transport.ServerEvents;
import io.nbench.transport.TransportTesting;
import io.nbench.transport.nio.NioTransport;
import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The product requirement that the netty client allocates nothing per message in rtt mode, checked on
 * its event loops (which also run the engine's response handling) with the JVM's per-thread
 * allocation counters: runs on the same client, once the JIT has settled, may
 * allocate only the per-run constant (connection set-up and close), never something per message.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NettyAllocationTest {

    @ParameterizedTest
    @CsvSource({"FRAMED, IO, 100, 4, 2", "ECHO, IO, 100, 4, 2", "FRAMED, THREADS, 100, 4, 2", "ECHO, THREADS, 100, 4, 2",
            // 5 KiB requests, 20 connections: several batch buffers per read batch held for the
            // connection's life, beside the read buffers the allocator hands out per read
            "ECHO, IO, 5120, 16, 20"})
    void noAllocationPerMessageOnTheEventLoops(Protocol protocol, Driver driver, int size, int window, int connections)
            throws Exception {
        java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(mx instanceof com.sun.management.ThreadMXBean, "needs HotSpot's allocation counters");
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) mx;
        TransportTesting.Case c = new TransportTesting.Case(protocol, size, size, window, driver, Measure.RTT);
        try (RunningServer server = TransportTesting.startServer(new NioTransport(), protocol, ServerEvents.NONE);
             ClientTransport client = TransportTesting.newClient(new NettyTransport(), protocol, false)) {
            run(client, server, c, connections, 20_000, threads);
            // The least of three runs each: a run now and then allocates an allocator chunk or an engine
            // structure once (hundreds of KiB, not per message); what every larger run allocates more is
            // allocation per message.
            long small = Long.MAX_VALUE;
            long large = Long.MAX_VALUE;
            for (int i = 0; i < 3; i++) {
                small = Math.min(small, run(client, server, c, connections, 5_000, threads));
                large = Math.min(large, run(client, server, c, connections, 25_000, threads));
            }
            // Each run allocates a constant (the engine's per-thread recorders, connection set-up and
            // close); what grows with the message count is allocation per message.
            long extraMessages = 2 * 2 * 20_000L;
            long extraBytes = large - small;
            assertTrue(extraBytes < extraMessages / 100, "event loops allocated " + small + " bytes in a run of "
                    + 2 * 2 * 5_000 + " messages and " + large + " in a run of " + 2 * 2 * 25_000 + " (least of 3 each)");
        }
    }

    /** Bytes the event loops allocated during one run of {@code msgs} messages per thread and iteration. */
    private static long run(ClientTransport client, RunningServer server, TransportTesting.Case c, int connections, long msgs,
                            com.sun.management.ThreadMXBean threads) throws Exception {
        Map<Long, Long> before = loopAllocations(threads);
        RunResult r = new BenchmarkRun(c.spec(2, connections, msgs), RunListener.NONE).execute(client, server.address());
        Map<Long, Long> after = loopAllocations(threads);
        // Without this the check passes vacuously: no thread found (renamed) or one gone is 0 bytes.
        assertFalse(after.isEmpty(), "no nbench-netty-client- event loop found to measure");
        assertTrue(after.keySet().containsAll(before.keySet()), "an event loop ended during the run: " + before.keySet()
                + " before, " + after.keySet() + " after");
        assertEquals(0, r.errors().total());
        assertEquals(2 * 2 * msgs, r.summary().messages());
        return after.entrySet().stream().mapToLong(e -> e.getValue() - before.getOrDefault(e.getKey(), 0L)).sum();
    }

    private static Map<Long, Long> loopAllocations(com.sun.management.ThreadMXBean threads) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("nbench-netty-client-"))
                .collect(Collectors.toMap(Thread::getId, t -> threads.getThreadAllocatedBytes(t.getId())));
    }
}
