package io.nbench.transport.mina;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.load.Driver;
import io.nbench.load.LoadSpec;
import io.nbench.load.Measure;
import io.nbench.protocol.Framed;
import io.nbench.protocol.Protocol;
import io.nbench.transport.ClientSettings;
import io.nbench.transport.ServerSettings;
import io.nbench.transport.SocketSettings;
import io.nbench.transport.Transport;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import org.apache.mina.core.service.IoServiceStatistics;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code mina.stats}: what each mode installs, and that the exact modes really count exactly. */
@Timeout(60)
class MinaStatisticsTest {

    private Set<Thread> threadsBefore;

    @org.junit.jupiter.api.BeforeEach
    void snapshotThreads() {
        threadsBefore = MinaTestKit.liveThreads();
    }

    @AfterEach
    void noThreadsLeft() throws Exception {
        MinaTestKit.assertNoNewMinaThreads(threadsBefore);
    }

    /**
     * Four sender threads over four connections and two NioProcessors per side, so MINA's shared
     * counters are updated from several threads at once; every total must equal what really moved.
     */
    @ParameterizedTest(name = "mina.stats={0}")
    @ValueSource(strings = {"spin-lock", "on"})
    void totalsAreExact(String mode) throws Exception {
        int threads = 4;
        long msgs = 2000;
        int size = 100;
        LoadSpec spec = MinaTestKit.spec(threads, threads, msgs, 0, 1, size, size, 4, Measure.RTT, Driver.THREADS,
                Protocol.FRAMED);
        long n = threads * msgs;
        long requestBytes = n * (Framed.REQUEST_HEADER + size);
        long responseBytes = n * (Framed.RESPONSE_HEADER + size);
        Transport mina = MinaTestKit.transport("mina");
        Map<String, String> opts = Map.of("mina.stats", mode);
        SocketSettings twoProcessors = new SocketSettings(2, true, 0, 0);
        try (MinaServer server = (MinaServer) mina.startServer(new ServerSettings(
                new InetSocketAddress("127.0.0.1", 0), Protocol.FRAMED, twoProcessors, MinaTestKit.MAX_FRAME,
                MinaTestKit.options(mina, opts)), new MinaTestKit.CountingEvents());
             MinaClient client = (MinaClient) mina.newClient(new ClientSettings(Protocol.FRAMED, twoProcessors,
                     Duration.ofSeconds(5), false, MinaTestKit.MAX_FRAME, MinaTestKit.options(mina, opts)))) {
            MinaTestKit.runClean(client, server.address(), spec);

            IoServiceStatistics c = client.statistics();
            IoServiceStatistics s = server.statistics();
            // The last updates may still be on their way from the processor threads.
            awaitEquals(requestBytes, c::getWrittenBytes, "client written bytes");
            awaitEquals(n, c::getWrittenMessages, "client written messages");
            awaitEquals(responseBytes, c::getReadBytes, "client read bytes");
            awaitEquals(0, c::getScheduledWriteBytes, "client scheduled write bytes");
            awaitEquals(0, c::getScheduledWriteMessages, "client scheduled write messages");
            awaitEquals(requestBytes, s::getReadBytes, "server read bytes");
            awaitEquals(responseBytes, s::getWrittenBytes, "server written bytes");
            awaitEquals(n, s::getWrittenMessages, "server written messages");
            awaitEquals(0, s::getScheduledWriteBytes, "server scheduled write bytes");
            // MINA counts a read message only when one reaches the IoHandler; nbench's decoders hand
            // frames to the engine (client) or answer them (server) without a decoded object, so none does.
            assertEquals(0, c.getReadMessages(), "client read messages");
            assertEquals(0, s.getReadMessages(), "server read messages");
        }
    }

    @Test
    void modesInstallWhatTheySay() throws Exception {
        Transport mina = MinaTestKit.transport("mina");
        for (String mode : MinaStatistics.MODES) {
            try (MinaClient client = (MinaClient) mina.newClient(new ClientSettings(Protocol.FRAMED,
                    MinaTestKit.socket(1), Duration.ofSeconds(1), false, MinaTestKit.MAX_FRAME,
                    MinaTestKit.options(mina, Map.of("mina.stats", mode))))) {
                IoServiceStatistics stats = client.statistics();
                switch (mode) {
                    case "on" -> {
                        assertInstanceOf(ReentrantLock.class, MinaStatistics.currentLock(stats));
                        assertTrue(stats.getConfig().isStatisticsCalcEnabled());
                    }
                    case "off" -> assertEquals(false, stats.getConfig().isStatisticsCalcEnabled());
                    case "spin-lock" -> assertInstanceOf(MinaStatistics.SpinLock.class, MinaStatistics.currentLock(stats));
                    default -> assertInstanceOf(MinaStatistics.NoopLock.class, MinaStatistics.currentLock(stats));
                }
                String described = client.effectiveConfig().get("stats");
                assertTrue(described.startsWith(mode), described);
                if (mode.equals("noop-lock")) {
                    assertTrue(described.contains("counts unreliable"), described);
                }
            }
        }
    }

    @Test
    void offCountsNothing() throws Exception {
        Transport mina = MinaTestKit.transport("mina");
        Map<String, String> opts = Map.of("mina.stats", "off");
        LoadSpec spec = MinaTestKit.spec(2, 2, 200, 0, 1, 100, 100, 4, Measure.RTT, Driver.IO, Protocol.FRAMED);
        try (MinaServer server = (MinaServer) MinaTestKit.server("mina", Protocol.FRAMED,
                new MinaTestKit.CountingEvents(), opts);
             MinaClient client = (MinaClient) MinaTestKit.client("mina", Protocol.FRAMED, false, opts)) {
            MinaTestKit.runClean(client, server.address(), spec);
            assertEquals(0, client.statistics().getWrittenBytes());
            assertEquals(0, server.statistics().getReadBytes());
        }
        assertEquals("off", mina.options().get(0).parse("off"));
    }

    @Test
    void spinLockIsReentrantAndExclusive() throws Exception {
        MinaStatistics.SpinLock lock = new MinaStatistics.SpinLock();
        lock.lock();
        lock.lock();
        lock.unlock();
        // The other thread only reports; the assertion runs here, on the test thread.
        AtomicReference<Boolean> acquired = new AtomicReference<>();
        Thread other = new Thread(() -> acquired.set(lock.tryLock()));
        other.start();
        other.join();
        assertEquals(Boolean.FALSE, acquired.get(), "another thread acquired a held lock (null: it never tried)");
        lock.unlock();
        long[] counter = {0};
        Thread[] ts = new Thread[4];
        for (int i = 0; i < ts.length; i++) {
            ts[i] = new Thread(() -> {
                for (int k = 0; k < 100_000; k++) {
                    lock.lock();
                    try {
                        counter[0]++;
                    } finally {
                        lock.unlock();
                    }
                }
            });
            ts[i].start();
        }
        for (Thread t : ts) {
            t.join();
        }
        assertEquals(400_000, counter[0]);
    }

    private static void awaitEquals(long expected, LongSupplier actual, String what) throws InterruptedException {
        MinaTestKit.await(() -> actual.getAsLong() == expected, 5000);
        assertEquals(expected, actual.getAsLong(), what);
    }
}
