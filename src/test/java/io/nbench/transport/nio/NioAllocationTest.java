package io.nbench.transport.nio;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.load.Driver;
import io.nbench.load.Measure;
import io.nbench.protocol.Protocol;
import io.nbench.transport.ClientTransport;
import io.nbench.transport.RunningServer;
import io.nbench.transport.ServerEvents;
import io.nbench.transport.TransportTesting;
import io.nbench.transport.netty.NettyTransport;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The product requirement that the nio client allocates nothing per message in rtt mode, checked on
 * its selector threads (which also run the engine's response handling) with the JVM's per-thread
 * allocation counters: the second of two runs on the same client, once the JIT has settled, may
 * allocate only the per-run constant (connection set-up and close), never something per message.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NioAllocationTest {

    @ParameterizedTest
    @CsvSource({"FRAMED, IO", "ECHO, IO", "FRAMED, THREADS", "ECHO, THREADS"})
    void noAllocationPerMessageOnTheSelectorThreads(Protocol protocol, Driver driver) throws Exception {
        java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(mx instanceof com.sun.management.ThreadMXBean, "needs HotSpot's allocation counters");
        TransportTesting.Case c = new TransportTesting.Case(protocol, 100, 100, 4, driver, Measure.RTT);
        try (RunningServer server = TransportTesting.startServer(new NettyTransport(), protocol, ServerEvents.NONE);
             ClientTransport client = TransportTesting.newClient(new NioTransport(), protocol, false)) {
            TransportTesting.ioThreadBytesDuringRun(client, server, c, 2, 20_000, "nbench-nio-client-");
            long small = TransportTesting.ioThreadBytesDuringRun(client, server, c, 2, 5_000, "nbench-nio-client-");
            long large = TransportTesting.ioThreadBytesDuringRun(client, server, c, 2, 25_000, "nbench-nio-client-");
            // Each run allocates a constant (the engine's per-thread recorders, connection set-up and
            // close); what grows with the message count is allocation per message.
            long extraMessages = 3 * 2 * 20_000L;
            long extraBytes = large - small;
            assertTrue(extraBytes < extraMessages / 100, "selector threads allocated " + small + " bytes in a run of "
                    + 3 * 2 * 5_000 + " messages and " + large + " in a run of " + 3 * 2 * 25_000);
        }
    }
}
