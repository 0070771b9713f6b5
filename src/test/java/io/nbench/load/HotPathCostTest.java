package io.nbench.load;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.protocol.Framed;
import io.nbench.protocol.Protocol;
import io.nbench.protocol.RequestTemplate;
import io.nbench.stats.IterationResult;
import io.nbench.testkit.Runs;
import io.nbench.testkit.TestServers;
import io.nbench.transport.ClientConnection;
import io.nbench.transport.ClientSettings;
import io.nbench.transport.ClientTransport;
import io.nbench.transport.ConnectionHandler;
import io.nbench.transport.PayloadView;
import io.nbench.transport.SocketSettings;
import io.nbench.transport.Transport;
import io.nbench.transport.TransportRegistry;
import io.nbench.transport.support.ByteBufferPayloadView;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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

    /** 4 connections x window 16 of 64-byte echo, io driver, 5,000 messages per thread. */
    private static Runs.Workload fourConnectionsOfSixteen() {
        return Runs.workload().protocol(Protocol.ECHO).threads(2).connections(4).window(16)
                .msgs(5_000).warmup(0).iterations(1).size(64).driver(Driver.IO);
    }

    /** A real echo client of transport {@code name} with one I/O thread. */
    private static ClientTransport oneLoopEchoClient(String name) throws IOException {
        TransportRegistry registry = TransportRegistry.load();
        Transport t = registry.get(name);
        return t.newClient(new ClientSettings(Protocol.ECHO, new SocketSettings(1, true, 0, 0),
                Duration.ofSeconds(5), false, TestServers.MAX_FRAME, registry.resolveOptions(t, Map.of())));
    }

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
        Runs.Workload w = fourConnectionsOfSixteen();
        CountingClock clock = new CountingClock();
        RunResult result;
        try (ClientTransport ct = oneLoopEchoClient(client)) {
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
        Runs.Workload w = fourConnectionsOfSixteen();
        BenchmarkRun run = new BenchmarkRun(w.spec(), RunListener.NONE);
        RunResult result;
        try (ClientTransport ct = oneLoopEchoClient(client)) {
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

    /** A real payload view that counts how often the engine reads the payload. */
    static final class CountingPayload implements PayloadView {
        final ByteBufferPayloadView view = new ByteBufferPayloadView();
        int reads;

        @Override
        public int length() {
            return view.length();
        }

        @Override
        public byte getByte(int index) {
            reads++;
            return view.getByte(index);
        }

        @Override
        public long getLong(int index) {
            reads++;
            return view.getLong(index);
        }
    }

    @Test
    void anEchoResponseThatCarriesItsIdIsReadOnceWhenItsBodyIsNotSampled() {
        // The engine's connection with its run; the test plays the transport: it takes the messages sent
        // and hands their echoes back as one read.
        RunControl run = new RunControl(Runs.workload().protocol(Protocol.ECHO).connections(1).window(16).size(64)
                .verify(Verify.SAMPLE)
                .driver(Driver.IO).spec(), NanoClock.SYSTEM, Thread.currentThread());
        RequestTemplate template = RequestTemplate.echo(64, 1);
        LoadConnection c = new LoadConnection(0, run, template, 16, false, false, false);
        List<Long> sent = new ArrayList<>();
        c.transport = new ClientConnection() {
            @Override
            public void send(long id) {
                sent.add(id);
            }

            @Override
            public void close() {
            }
        };
        c.remaining.set(0); // the io driver sends nothing after these 16
        for (int i = 0; i < 16; i++) {
            assertTrue(c.tryAcquire());
            c.sendOne();
        }
        ConnectionHandler handler = c.link();
        CountingPayload payload = new CountingPayload();
        byte[] wire = new byte[template.wireLength()];
        handler.onReadStart();
        try {
            for (long id : sent) {
                template.encode(id, wire, 0);
                payload.view.wrap(ByteBuffer.wrap(wire), 0, wire.length);
                handler.onResponse(ConnectionHandler.UNKNOWN_ID, Framed.STATUS_OK, payload);
            }
        } finally {
            handler.onReadEnd();
        }
        assertTrue(c.drained(), "every message completed");
        assertEquals(0, run.errors.snapshot().total());
        // Sequence numbers 1 to 16: none is one of the 1 in 64 whose body --verify sample checks. The stamp
        // is read once to find the message; reading it again to check it against that same id was a
        // second read per response.
        assertEquals(16, payload.reads, "payload reads for 16 responses");
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
