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
import io.nbench.transport.ClientSettings;
import io.nbench.transport.ClientTransport;
import io.nbench.transport.OptionValues;
import io.nbench.transport.RunningServer;
import io.nbench.transport.SocketSettings;
import io.nbench.transport.TransportTesting;
import io.nbench.transport.Vectors;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The selector loop writes its connections' read-batch sends from one shared buffer
 * ({@link SharedWriteBuffer}), copying in each connection's own first bytes and id over copies prepared
 * by other connections. Checked on an engine run of 8 connections on one loop (so every batch's buffer
 * last held another connection's requests) against a real server, with every response byte verified
 * ({@code Verify.FULL}): a request carrying another connection's bytes fails verification. Sizes: one
 * where a batch fits the buffer, one (5,000 x window 16 > 64 KiB) where it is written a buffer-full at a
 * time, and one too small to share anything (the whole request is per connection).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NioClientSharedWriteTest {

    @ParameterizedTest(name = "{0} size={1} window={2}")
    @CsvSource({"ECHO, 1000, 16", "FRAMED, 1000, 16", "ECHO, 5000, 16", "FRAMED, 12, 16", "ECHO, 1000, 1"})
    void batchesGoFromTheLoopsBufferWithEachConnectionsOwnBytes(Protocol protocol, int size, int window)
            throws Exception {
        TransportTesting.Case c = new TransportTesting.Case(protocol, size, size, window, Driver.IO, Measure.RTT);
        RunningServer server = TestServers.get("nio", protocol);
        List<NioClientConnection> connections = new CopyOnWriteArrayList<>();
        NioTransport t = new NioTransport();
        ClientSettings oneLoop = new ClientSettings(protocol, new SocketSettings(1, true, 0, 0), Duration.ofSeconds(5),
                false, Vectors.MAX_FRAME, OptionValues.resolve(t.options(), Map.of()));
        try (ClientTransport client = new RecordingNioClient(t.newClient(oneLoop), connections)) {
            long msgs = 4_000;
            RunResult r = new BenchmarkRun(c.spec(2, 8, msgs), RunListener.NONE).execute(client, server.address());
            assertEquals(Map.of(), r.errors().nonZero(), "integrity errors are requests with another connection's bytes");
            assertEquals(2 * 2 * msgs, r.summary().messages());
            assertEquals(8, connections.size());
            long shared = connections.stream().mapToLong(NioClientConnection::sharedEncodes).sum();
            long sent = 2 * 3 * msgs; // the warmup iteration sends as many as each measured one
            // All but each window's first requests (sent by the engine's threads) are sent by the loop.
            assertTrue(shared * 10 > sent * 8, shared + " of " + sent + " requests written from the loop's buffer");
        }
    }
}
