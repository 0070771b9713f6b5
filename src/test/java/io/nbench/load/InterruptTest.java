package io.nbench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link BenchmarkRun#interrupt} (what SIGINT calls) stops a run whenever it comes: before the run has
 * started, or in the middle of an iteration, which is cut and reported.
 */
class InterruptTest {

    private static final InetSocketAddress SERVER = TestServers.get("nio", Protocol.FRAMED).address();

    @Test
    @Timeout(60)
    void anInterruptBeforeTheRunStartsEndsItWithoutMeasuring() throws Exception {
        Runs.Workload w = Runs.workload().connections(2).msgs(1_000_000).warmup(0).iterations(3);
        try (ClientTransport client = client(w)) {
            BenchmarkRun run = new BenchmarkRun(w.spec(), RunListener.NONE);
            run.interrupt();
            RunResult r = run.execute(client, SERVER);
            assertTrue(r.interrupted());
            assertEquals(AbortCause.INTERRUPTED, r.abortCause());
            assertTrue(r.iterations().isEmpty(), "no iteration starts after the interrupt: " + r.iterations());
        }
    }

    @Test
    @Timeout(60)
    void anInterruptInAnIterationCutsItAndReportsWhatWasMeasured() throws Exception {
        for (Driver driver : Driver.values()) {
            // One minute per iteration: only the interrupt can end this run within the test's timeout.
            Runs.Workload w = Runs.workload().driver(driver).connections(2).iterationTime(Duration.ofMinutes(1))
                    .warmup(0).iterations(2);
            CountDownLatch measuring = new CountDownLatch(1);
            RunListener listener = new RunListener() {
                @Override
                public void onStarted(long startEpochMillis) {
                    measuring.countDown();
                }
            };
            try (ClientTransport client = client(w)) {
                BenchmarkRun run = new BenchmarkRun(w.spec(), listener);
                CompletableFuture<RunResult> result = CompletableFuture.supplyAsync(() -> {
                    try {
                        return run.execute(client, SERVER);
                    } catch (RunFailure e) {
                        throw new IllegalStateException(e);
                    }
                });
                assertTrue(measuring.await(30, TimeUnit.SECONDS), driver + ": the run started");
                run.interrupt();
                RunResult r = result.get(30, TimeUnit.SECONDS);
                assertTrue(r.interrupted(), driver.toString());
                assertEquals(AbortCause.INTERRUPTED, r.abortCause(), driver.toString());
                assertEquals(1, r.iterations().size(), driver + ": the cut iteration is reported, no other starts");
                IterationResult cut = r.iterations().get(0);
                assertTrue(cut.partial(), driver + ": the iteration is marked cut");
            }
        }
    }

    private static ClientTransport client(Runs.Workload w) throws Exception {
        TransportRegistry registry = TransportRegistry.load();
        Transport nio = registry.get("nio");
        return nio.newClient(new ClientSettings(w.protocol, new SocketSettings(2, true, 0, 0), Duration.ofSeconds(5),
                false, TestServers.MAX_FRAME, registry.resolveOptions(nio, Map.of())));
    }
}
