package io.nbench.transport.mina;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.load.Driver;
import io.nbench.load.LoadSpec;
import io.nbench.load.Measure;
import io.nbench.protocol.Protocol;
import io.nbench.protocol.RequestTemplate;
import io.nbench.testkit.NoConnectionEvents;
import io.nbench.transport.ClientConnection;
import io.nbench.transport.ClientTransport;
import io.nbench.transport.ConnectionHandler;
import io.nbench.transport.PayloadView;
import io.nbench.transport.RunningServer;
import io.nbench.transport.Transport;
import io.nbench.transport.TransportOption;
import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.apache.mina.core.session.IoSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What only MINA has: declarations, JVM-global buffer settings, mina-vmpipe through the engine, written events
 * from several senders, and the server's write bound; each test checks no MINA thread is left. Connect errors,
 * closes seen by the client and a port in use are the contracts' cases ({@link MinaClientTest},
 * {@link MinaServerTest}).
 */
@Timeout(60)
class MinaTransportTest {

    private Set<Thread> threadsBefore;

    @org.junit.jupiter.api.BeforeEach
    void snapshotThreads() {
        threadsBefore = MinaTestKit.liveThreads();
    }

    @AfterEach
    void noThreadsLeft() throws Exception {
        MinaTestKit.assertNoNewMinaThreads(threadsBefore);
    }

    @Test
    void declarations() {
        Transport mina = MinaTestKit.transport("mina");
        Transport vmpipe = MinaTestKit.transport("mina-vmpipe");
        Set<String> keys = mina.options().stream().map(TransportOption::key).collect(Collectors.toSet());
        assertEquals(Set.of("mina.stats", "mina.read-buffer", "mina.read-buffer-min", "mina.read-buffer-max",
                "mina.direct", "mina.allocator", "mina.executor"), keys);
        for (TransportOption o : vmpipe.options()) {
            assertTrue(o.key().startsWith("mina-vmpipe."), o.key());
        }
        assertFalse(mina.inJvm());
        assertTrue(mina.writtenEvent().contains("messageSent"));
        assertTrue(vmpipe.inJvm());
        assertNull(vmpipe.writtenEvent());
        assertThrows(IllegalArgumentException.class, () -> mina.options().get(0).parse("lock-free"));
    }

    @Test
    void effectiveConfigNamesEveryChoice() throws Exception {
        Map<String, String> opts = Map.of("mina.read-buffer", "4k", "mina.read-buffer-max", "128k", "mina.direct", "true",
                "mina.allocator", "cached", "mina.stats", "noop-lock");
        try (ClientTransport client = MinaTestKit.client("mina", Protocol.FRAMED, false, opts)) {
            Map<String, String> c = client.effectiveConfig();
            assertEquals("1", c.get("processors"));
            assertEquals("noop-lock (counts unreliable)", c.get("stats"));
            assertEquals("4096", c.get("read-buffer"));
            assertEquals("64", c.get("read-buffer-min"));
            assertEquals("131072", c.get("read-buffer-max"));
            assertEquals("true", c.get("direct"));
            assertEquals("cached", c.get("allocator"));
            assertEquals("true", c.get("tcp-nodelay"));
            assertEquals("os-default", c.get("sndbuf"));
            assertEquals("os-default", c.get("rcvbuf"));
        } finally {
            // IoBuffer settings are JVM-global: restore MINA's defaults for the other tests.
            try (ClientTransport reset = MinaTestKit.client("mina", Protocol.FRAMED, false, Map.of())) {
                assertEquals("false", reset.effectiveConfig().get("direct"));
            }
        }
        assertThrows(IllegalArgumentException.class, () -> MinaTestKit.client("mina", Protocol.FRAMED, false,
                Map.of("mina.read-buffer", "128k")));
    }

    /** Direct buffers with the cached allocator: buffers are recycled, so stale bytes must never leak out. */
    @Test
    void directCachedBuffersRunClean() throws Exception {
        Map<String, String> opts = Map.of("mina.direct", "true", "mina.allocator", "cached");
        try (RunningServer server = MinaTestKit.server("mina", Protocol.FRAMED, new MinaTestKit.CountingEvents(), opts);
             ClientTransport client = MinaTestKit.client("mina", Protocol.FRAMED, false, opts)) {
            for (int size : new int[] {100, 5000}) {
                // Responses longer than requests: the zero padding must be written into recycled buffers.
                LoadSpec spec = MinaTestKit.spec(2, 2, 300, 0, 1, size, size * 2, 8, Measure.RTT, Driver.IO,
                        Protocol.FRAMED);
                MinaTestKit.runClean(client, server.address(), spec);
            }
        } finally {
            MinaTestKit.client("mina", Protocol.FRAMED, false, Map.of()).close();
        }
    }

    @ParameterizedTest
    @EnumSource(Driver.class)
    void vmpipeThroughTheEngine(Driver driver) throws Exception {
        for (Protocol protocol : List.of(Protocol.FRAMED, Protocol.ECHO)) {
            MinaTestKit.CountingEvents events = new MinaTestKit.CountingEvents();
            try (RunningServer server = MinaTestKit.server("mina-vmpipe", protocol, events, Map.of());
                 ClientTransport client = MinaTestKit.client("mina-vmpipe", protocol, false, Map.of())) {
                for (int size : new int[] {1, 100, 100 * 1024}) {
                    for (int window : new int[] {1, 16}) {
                        LoadSpec spec = MinaTestKit.spec(2, 2, size > 10_000 ? 50 : 200, 1, 2, size, size, window,
                                Measure.RTT, driver, protocol);
                        MinaTestKit.runClean(client, server.address(), spec);
                    }
                }
                assertTrue(events.opened.get() > 0);
            }
        }
    }

    /**
     * --measure send reports each request's own id, also for echo messages too small to carry it
     * (the id then rides past the buffer's limit), and from several sending threads at once.
     */
    @ParameterizedTest
    @ValueSource(strings = {"framed", "echo"})
    void writtenEventsCarryTheRightIds(String name) throws Exception {
        Protocol protocol = Protocol.parse(name);
        int perThread = 500;
        for (int size : new int[] {1, 100}) {
            try (RunningServer server = MinaTestKit.server("mina", protocol, new MinaTestKit.CountingEvents(), Map.of());
                 ClientTransport client = MinaTestKit.client("mina", protocol, true, Map.of())) {
                Set<Long> written = ConcurrentHashMap.newKeySet();
                AtomicLong bytesBack = new AtomicLong();
                ConnectionHandler handler = new NoEvents() {
                    @Override
                    public void onWritten(long id) {
                        assertTrue(written.add(id), "id " + id + " reported twice");
                    }

                    @Override
                    public void onResponse(long id, int status, PayloadView payload) {
                        bytesBack.addAndGet(payload.length());
                    }
                };
                RequestTemplate template = RequestTemplate.of(protocol, size, size, 7);
                ClientConnection c = client.connect(server.address(), template, handler);
                Thread[] senders = new Thread[2];
                for (int t = 0; t < senders.length; t++) {
                    long base = (t + 1) * 1_000_000L;
                    senders[t] = new Thread(() -> {
                        for (int k = 0; k < perThread; k++) {
                            c.send(base + k);
                        }
                    });
                    senders[t].start();
                }
                for (Thread t : senders) {
                    t.join();
                }
                int total = senders.length * perThread;
                assertTrue(MinaTestKit.await(() -> written.size() == total, 10_000), "written " + written.size());
                for (int t = 0; t < senders.length; t++) {
                    for (int k = 0; k < perThread; k++) {
                        assertTrue(written.contains((t + 1) * 1_000_000L + k));
                    }
                }
                assertTrue(MinaTestKit.await(() -> bytesBack.get() == (long) total * size, 10_000), "responses");
                c.close();
            }
        }
    }

    /**
     * A client that sends requests for 64 MiB of responses and reads nothing: the server must stop
     * reading and answering near its bound instead of queueing everything, and still answer every
     * request once the client reads.
     */
    @Test
    void serverBoundsWhatItBuffersForAClientThatDoesNotRead() throws Exception {
        int count = 64;
        int responseLength = 1024 * 1024;
        try (MinaServer server = (MinaServer) MinaTestKit.server("mina", Protocol.FRAMED,
                new MinaTestKit.CountingEvents(), Map.of());
             Socket s = new Socket(server.address().getAddress(), server.address().getPort())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            ByteBuffer req = ByteBuffer.allocate(16 * count);
            for (int i = 0; i < count; i++) {
                req.putInt(12).putInt(responseLength).putLong(i + 1);
            }
            out.write(req.array());
            out.flush();
            IoSession session = awaitSession(server);
            assertTrue(MinaTestKit.await(session::isReadSuspended, 5000), "reads were never suspended");
            long scheduled = session.getScheduledWriteBytes();
            assertTrue(scheduled <= WriteBound.HIGH + 13 + responseLength, "scheduled " + scheduled);
            DataInputStream in = new DataInputStream(s.getInputStream());
            byte[] payload = new byte[responseLength];
            for (int i = 0; i < count; i++) {
                assertEquals(9 + responseLength, in.readInt());
                assertEquals(i + 1, in.readLong());
                assertEquals(0, in.readByte());
                in.readFully(payload);
                assertArrayEquals(new byte[responseLength], payload);
                assertTrue(session.getScheduledWriteBytes() <= WriteBound.HIGH + 13 + responseLength);
            }
        }
    }

    private static IoSession awaitSession(MinaServer server) throws InterruptedException {
        assertTrue(MinaTestKit.await(() -> !server.sessions().isEmpty(), 5000));
        return server.sessions().iterator().next();
    }

    /** Kept as a name of this test's: every event ignored. */
    static class NoEvents extends NoConnectionEvents {
    }
}
