package io.nbench.transport.nio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.load.BenchmarkRun;
import io.nbench.load.Driver;
import io.nbench.load.Measure;
import io.nbench.load.RunListener;
import io.nbench.load.RunResult;
import io.nbench.protocol.Protocol;
import io.nbench.testkit.TestServers;
import io.nbench.transport.ClientTransport;
import io.nbench.transport.RunningServer;
import io.nbench.transport.TransportTesting;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * With the io driver the selector thread sends each connection's next request from inside
 * {@code onResponse}; those sends are collected during the read batch and written under one lock
 * acquisition when it ends, instead of one per send. Counted on the real connections of an engine run
 * against a real server: lock acquisitions per message must stay well below one (a window of 16 gives
 * batches of several responses; the window's first requests, sent by the engine's threads, take it once
 * each). With {@code --measure send} (threads driver) the engine's threads send and each send's written
 * event is reported by the thread that wrote it: the written request is taken under the send's own lock
 * acquisition, one per message (it was three: the send, the report, and a look that found nothing more).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NioClientBatchLockTest {

    @ParameterizedTest
    @EnumSource(value = Measure.class, names = {"RTT", "SEND"})
    void sendsOfAReadBatchTakeTheLockOnce(Measure measure) throws Exception {
        Protocol protocol = Protocol.ECHO;
        // As a user can run them: --measure send goes with the threads driver.
        Driver driver = measure == Measure.RTT ? Driver.IO : Driver.THREADS;
        TransportTesting.Case c = new TransportTesting.Case(protocol, 100, 100, 16, driver, measure);
        RunningServer server = TestServers.get("nio", protocol);
        List<NioClientConnection> connections = new CopyOnWriteArrayList<>();
        try (ClientTransport nio = TransportTesting.newClient(new NioTransport(), protocol, measure == Measure.SEND,
                Map.of());
             ClientTransport client = new RecordingNioClient(nio, connections)) {
            RunResult r = new BenchmarkRun(c.spec(2, 4, 20_000), RunListener.NONE).execute(client, server.address());
            assertEquals(0, r.errors().total());
            long messages = r.summary().messages();
            assertEquals(2 * 2 * 20_000L, messages);
            assertTrue(connections.size() >= 4, connections.size() + " connections recorded");
            long locks = connections.stream().mapToLong(NioClientConnection::lockAcquisitions).sum();
            long sent = messages * 3 / 2; // the warmup iteration sends as many as each of the two measured
            if (measure == Measure.RTT) {
                assertTrue(locks * 2 < sent, locks + " lock acquisitions for " + sent
                        + " messages: the selector thread's sends take the lock one by one");
            } else {
                // Each send is written at once: one acquisition, the written request taken under it.
                assertTrue(locks * 10 < sent * 11, locks + " lock acquisitions for " + sent
                        + " messages: more than one per send");
            }
        }
    }
}
