package io.nbench.transport;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.protocol.Protocol;
import io.nbench.protocol.RequestTemplate;
import io.nbench.testkit.Transports;
import io.netty.util.internal.PlatformDependent;
import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 9, defect 5: what a client transport holds for requests in flight. A peer that accepts and
 * never reads lets the kernel take a few MiB and leaves every other request queued in the client, as a
 * large window does against a busy server. 128 requests of 1 MiB must not cost 128 MiB: the payload is
 * one per connection and each queued request costs its header and bookkeeping only.
 *
 * <p>Blocking and virtual-thread clients are not here: their send blocks while the kernel's buffer is
 * full, so they hold nothing beyond the one request being written.
 */
class ClientMemoryTest {

    private static final int SIZE = 1024 * 1024;
    private static final int REQUESTS = 128;
    /** Per connection: one shared payload (1 MiB), the kernel's share is not on the heap; generous for pools and GC noise. */
    private static final long LIMIT = 24L * 1024 * 1024;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"netty", "mina", "nio"})
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void queuedRequestsDoNotHoldTheirPayload(String name) throws Exception {
        Transport t = Transports.get(name);
        try (ServerSocket sink = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
             ClientTransport client = TransportTesting.newClient(t, Protocol.FRAMED, false)) {
            InetSocketAddress at = new InetSocketAddress(InetAddress.getLoopbackAddress(), sink.getLocalPort());
            RequestTemplate template = RequestTemplate.framed(SIZE, 0, 7);
            long before = heldBytes();
            ClientConnection connection = client.connect(at, template, new ClientContract.Recorder());
            // The peer accepts and never reads: the requests queue in the client.
            try (Socket peer = sink.accept()) {
                assertTrue(peer.isConnected());
                for (long id = 1; id <= REQUESTS; id++) {
                    connection.send(id);
                }
                long held = heldBytes() - before;
                assertTrue(held < LIMIT, name + " holds " + mib(held) + " MiB for " + REQUESTS
                        + " queued requests of 1 MiB (limit " + mib(LIMIT) + " MiB): the payload is held per request");
                connection.close();
            }
        }
    }

    /** Heap live after a full collection, plus direct buffers (the JDK's pools and Netty's own counter). */
    private static long heldBytes() {
        for (int i = 0; i < 2; i++) {
            System.gc();
        }
        long bytes = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        List<BufferPoolMXBean> pools = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class);
        for (BufferPoolMXBean pool : pools) {
            bytes += Math.max(0, pool.getMemoryUsed());
        }
        // Netty counts direct memory it allocates without a Cleaner itself (-1 when it does not).
        bytes += Math.max(0, PlatformDependent.usedDirectMemory());
        return bytes;
    }

    private static long mib(long bytes) {
        return bytes / (1024 * 1024);
    }
}
