package io.nbench.load;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.protocol.Protocol;
import io.nbench.stats.IterationResult;
import io.nbench.testkit.Runs;
import io.nbench.testkit.TestServers;
import io.nbench.transport.ClientSettings;
import io.nbench.transport.ClientTransport;
import io.nbench.transport.SocketSettings;
import io.nbench.transport.Transport;
import io.nbench.transport.TransportRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What the engine spends per message on the I/O thread, counted rather than timed: clock readings per
 * message with the io driver (one per read, shared by its responses and the sends they trigger), and which recording threads get the slower packed histograms.
 */
class HotPathCostTest {

    /** The system clock, counting its readings. */
    static final class CountingClock implements NanoClock {
        final AtomicLong reads = new AtomicLong();

        @Override
        public long nanoTime() {
            reads.incrementAndGet();
            return System.nanoTime();
        }

        @Override
        public void park(Object blocker, long nanos) {
            LockSupport.parkNanos(blocker, nanos);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"nio", "netty"})
    @Timeout(60)
    void theIoDriverReadsTheClockOncePerReadNotPerMessage(String client) throws Exception {
        // Real server, real client transport; 4 connections x window 16, 5,000 messages per thread.
        Runs.Workload w = Runs.workload().protocol(Protocol.ECHO).threads(2).connections(4).window(16)
                .msgs(5_000).warmup(0).iterations(1).size(64).driver(Driver.IO);
        TransportRegistry registry = TransportRegistry.load();
        Transport t = registry.get(client);
        ClientSettings settings = new ClientSettings(Protocol.ECHO, new SocketSettings(1, true, 0, 0),
                Duration.ofSeconds(5), false, TestServers.MAX_FRAME, registry.resolveOptions(t, Map.of()));
        CountingClock clock = new CountingClock();
        RunResult result;
        try (ClientTransport ct = t.newClient(settings)) {
            result = new BenchmarkRun(w.spec(), RunListener.NONE, clock)
                    .execute(ct, TestServers.get("nio", Protocol.ECHO).address());
        }
        long messages = result.iterations().stream().mapToLong(IterationResult::messages).sum();
        assertEquals(w.expectedMessages(), messages);
        assertEquals(0, result.errors().total());
        // One reading per read (the responses of a read share it), reused as the next messages' start;
        // with 16 in flight per connection a read brings several responses. Per response and per send,
        // it was 2 readings per message; the coordinator's own readings are a few hundred at most.
        double perMessage = (double) clock.reads.get() / messages;
        assertTrue(perMessage < 0.6, "clock readings per message: " + perMessage + " (" + clock.reads.get()
                + " for " + messages + " messages)");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"nio", "netty"})
    @Timeout(60)
    void theResponsesOfAReadShareOneContextLookUpAndOneHistogramCriticalSection(String client) throws Exception {
        // Real server, real client transport, one I/O thread; 4 connections x window 16.
        Runs.Workload w = Runs.workload().protocol(Protocol.ECHO).threads(2).connections(4).window(16)
                .msgs(5_000).warmup(0).iterations(1).size(64).driver(Driver.IO);
        TransportRegistry registry = TransportRegistry.load();
        Transport t = registry.get(client);
        ClientSettings settings = new ClientSettings(Protocol.ECHO, new SocketSettings(1, true, 0, 0),
                Duration.ofSeconds(5), false, TestServers.MAX_FRAME, registry.resolveOptions(t, Map.of()));
        BenchmarkRun run = new BenchmarkRun(w.spec(), RunListener.NONE);
        RunResult result;
        try (ClientTransport ct = t.newClient(settings)) {
            result = run.execute(ct, TestServers.get("nio", Protocol.ECHO).address());
        }
        long messages = result.iterations().stream().mapToLong(IterationResult::messages).sum();
        assertEquals(w.expectedMessages(), messages);
        assertEquals(0, result.errors().total());
        // The recording threads' own counts, read after the run (the last flip orders them before us).
        long lookups = 0;
        long sections = 0;
        for (ThreadContext c : run.recorders().flipAll()) {
            lookups += c.lookups;
            sections += c.criticalSections();
        }
        // Per response, it was one look-up and one critical section (two atomic increments) per message;
        // per read, a read brings several responses with 16 in flight per connection.
        double lookupsPerMessage = (double) lookups / messages;
        double sectionsPerMessage = (double) sections / messages;
        assertAll(
                () -> assertTrue(lookupsPerMessage < 0.6, "context look-ups per message: " + lookupsPerMessage),
                () -> assertTrue(sectionsPerMessage < 0.6,
                        "histogram critical sections per message: " + sectionsPerMessage));
    }

    @Test
    void theFirstRecordingThreadsGetFullHistogramsWhateverTheConnectionCount() {
        // 200 connections over one or two I/O threads: those threads record every message.
        assertFalse(Recorders.packedRecorder(200, false, 0));
        assertFalse(Recorders.packedRecorder(200, false, Recorders.FULL_RECORDERS - 1));
        // A thread per connection: the many later threads get small packed histograms.
        assertTrue(Recorders.packedRecorder(200, false, Recorders.FULL_RECORDERS));
        assertFalse(Recorders.packedRecorder(Recorders.PACKED_ABOVE_CONNECTIONS, false, 100));
        // Churn starts new threads all the time.
        assertTrue(Recorders.packedRecorder(4, true, 0));
    }
}
