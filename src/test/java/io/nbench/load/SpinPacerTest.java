package io.nbench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.load.IterationBoundaryTest.Handled;
import io.nbench.load.IterationBoundaryTest.ManualClock;
import io.nbench.protocol.Protocol;
import io.nbench.stats.IterationResult;
import io.nbench.stats.Percentiles;
import io.nbench.testkit.Runs;
import io.nbench.testkit.ScriptedServer;
import io.nbench.testkit.ScriptedServer.Action;
import io.nbench.testkit.TestServers;
import io.nbench.transport.ClientSettings;
import io.nbench.transport.ClientTransport;
import io.nbench.transport.SocketSettings;
import io.nbench.transport.Transport;
import io.nbench.transport.TransportRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code --pacer spin}: busy-waits for each message's intended time, on the same schedule as the sleeping pacer;
 * {@code --pacer hybrid} parks for most of the wait and spins the rest.
 */
class SpinPacerTest {

    static final long MS = 1_000_000L;

    @Test
    @Timeout(60)
    void sendsEveryMessageAtItsIntendedTimeWithoutParkingOnAHandMovedClock() throws Exception {
        ManualClock clock = new ManualClock();
        IterationResult it = paceOnAHandMovedClock(Pacing.SPIN, clock);
        assertEquals(50, it.openLoop().sent());
        assertEquals(245 * MS, it.wallNanos(), "from the first message's intended time to the last answer");
        assertEquals(0, clock.pacerParks.get(), "a spinning pacer never parks to wait for a message's time");
    }

    @Test
    @Timeout(60)
    void aHybridPacerParksButSendsNothingBeforeItsTimeAndEverythingAtIt() throws Exception {
        // It parks (its early wake-ups) and spins the rest, so on a clock that moves only by hand every message
        // still goes out at exactly the reading at which it fell due.
        ManualClock clock = new ManualClock();
        paceOnAHandMovedClock(Pacing.HYBRID, clock);
        assertTrue(clock.pacerParks.get() > 0, "a hybrid pacer parks for most of a wait");
    }

    /**
     * 200 msg/s over 2 connections: connection 0 at T0 + 10 ms * k, connection 1 at T0 + 5 ms + 10 ms * k; 50
     * messages, the last due at T0 + 245 ms. The clock moves 1 ms at a time: at each reading exactly the messages
     * due by then have been sent and answered, and each went out at the reading at which it fell due.
     */
    private static IterationResult paceOnAHandMovedClock(Pacing pacing, ManualClock clock) throws Exception {
        Handled handled = new Handled();
        long t0 = clock.nanoTime();
        try (ScriptedServer server = new ScriptedServer(i -> Action.ANSWER)) {
            Runs.Workload w = Runs.workload().threads(1).connections(2).msgs(50).warmup(0).iterations(1).rate(200)
                    .size(64).pacing(pacing);
            TransportRegistry registry = TransportRegistry.load();
            Transport nio = registry.get("nio");
            ClientSettings settings = new ClientSettings(w.protocol, new SocketSettings(2, true, 0, 0),
                    Duration.ofSeconds(5), false, TestServers.MAX_FRAME, registry.resolveOptions(nio, Map.of()));
            try (ClientTransport real = nio.newClient(settings)) {
                BenchmarkRun run = new BenchmarkRun(w.spec(), RunListener.NONE, clock);
                CompletableFuture<RunResult> result = CompletableFuture.supplyAsync(() -> {
                    try {
                        return run.execute(IterationBoundaryTest.counting(real, handled), server.address());
                    } catch (RunFailure e) {
                        throw new IllegalStateException(e);
                    }
                });
                for (long now = t0; ; now += MS) {
                    clock.now.set(now);
                    long due = Math.min(50, (now - t0) / (5 * MS) + 1);
                    assertTrue(handled.await(due), "answered what was due by " + (now - t0) / MS + " ms");
                    assertEquals(due, server.requests(), "nothing sent before its time, at " + (now - t0) / MS + " ms");
                    if (due == 50) {
                        break;
                    }
                }
                RunResult r = result.get(30, TimeUnit.SECONDS);
                assertNull(r.abortReason());
                IterationResult it = r.iterations().get(0);
                assertEquals(50, it.messages());
                assertEquals(0, Percentiles.valueAt(it.openLoop().sendLag(), 100),
                        "each message went out at the clock reading at which it fell due");
                return it;
            }
        }
    }

    @Test
    void holdsAModestRealRate() {
        // 300 messages at 2000/s over 2 connections: the schedule alone takes 150 ms; the upper bound is
        // generous for a busy machine.
        Runs.Workload w = Runs.workload().threads(1).connections(2).msgs(300).warmup(0).iterations(1).rate(2000)
                .pacing(Pacing.SPIN);
        RunResult r = w.run("nio", TestServers.get("netty", Protocol.FRAMED).address());
        IterationResult it = r.iterations().get(0);
        assertEquals(0, r.errors().total());
        assertEquals(300, it.openLoop().sent());
        assertEquals(300, it.messages());
        assertTrue(it.wallNanos() >= 149 * MS, "paced, not flooded: " + it.wallNanos() / MS + " ms");
        assertTrue(it.wallNanos() < 5_000 * MS, "and not stuck: " + it.wallNanos() / MS + " ms");
    }
}
