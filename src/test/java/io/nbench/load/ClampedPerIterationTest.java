package io.nbench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.protocol.Protocol;
import io.nbench.stats.IterationResult;
import io.nbench.stats.LatencyHistograms;
import io.nbench.testkit.Runs;
import io.nbench.testkit.TestServers;
import io.nbench.transport.ClientSettings;
import io.nbench.transport.ClientTransport;
import io.nbench.transport.SocketSettings;
import io.nbench.transport.Transport;
import io.nbench.transport.TransportRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An iteration's {@code clamped} (latencies beyond the histograms' one-hour range, recorded as its maximum)
 * counts that iteration's values only, not the run's so far. Time is moved by hand: each response comes
 * two hours after its request.
 */
class ClampedPerIterationTest {

    @Test
    @Timeout(60)
    void eachIterationCountsItsOwnClampedValues() throws Exception {
        IterationBoundaryTest.ManualClock clock = new IterationBoundaryTest.ManualClock();
        // One message in flight at a time, a timeout far past the jump: every message completes, 2 h late.
        Runs.Workload w = Runs.workload().threads(1).connections(1).window(1).msgs(3).warmup(1).iterations(2)
                .timeout(Duration.ofHours(10)).size(64);
        TransportRegistry registry = TransportRegistry.load();
        Transport nio = registry.get("nio");
        ClientSettings settings = new ClientSettings(Protocol.FRAMED, new SocketSettings(2, true, 0, 0),
                Duration.ofSeconds(5), false, TestServers.MAX_FRAME, registry.resolveOptions(nio, Map.of()));
        RunResult r;
        try (ClientTransport real = nio.newClient(settings)) {
            ClientTransport late = IterationBoundaryTest.observed(real,
                    () -> clock.now.addAndGet(TimeUnit.HOURS.toNanos(2)), () -> { });
            r = new BenchmarkRun(w.spec(), RunListener.NONE, clock)
                    .execute(late, TestServers.get("nio", Protocol.FRAMED).address());
        }
        assertNull(r.abortReason());
        assertEquals(3, r.iterations().size());
        for (IterationResult it : r.iterations()) {
            assertEquals(3, it.messages(), "iteration " + it.index() + (it.warmup() ? " (warmup)" : ""));
            assertTrue(it.latency().valuesAreEquivalent(it.latency().getMinValue(), LatencyHistograms.MAX_NANOS),
                    "every value recorded as the range's maximum");
            assertEquals(3, it.clamped(), "iteration " + it.index() + (it.warmup() ? " (warmup)" : "")
                    + ": its own 3 values, not the run's so far");
        }
    }
}
