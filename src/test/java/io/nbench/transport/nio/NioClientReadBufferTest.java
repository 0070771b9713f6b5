package io.nbench.transport.nio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.protocol.Protocol;
import io.nbench.protocol.RequestTemplate;
import io.nbench.testkit.ServerProcess;
import io.nbench.transport.ClientConnection;
import io.nbench.transport.ConnectionHandler;
import io.nbench.transport.ErrorKind;
import io.nbench.transport.PayloadView;
import io.nbench.transport.ClientTransport;
import io.nbench.transport.TransportTesting;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The nio client's connections on one selector loop read into one shared buffer, so that the kernel
 * copies every read into memory that stays in the core's cache; a connection keeps only the bytes of an
 * incomplete response. What that buys, counted through real sockets: the direct memory a connection
 * holds is its write buffer and a response-sized carry, not a read buffer of {@code nio.buffer} bytes
 * too. The echo server runs in a child JVM (as a user runs it) so that its buffers are not counted.
 */
class NioClientReadBufferTest {

    private static final int CONNECTIONS = 100;
    private static final int SIZE = 1000;
    private static final int BUFFER = 64 * 1024;

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void connectionsOnOneLoopShareOneReadBuffer() throws Exception {
        try (ServerProcess server = ServerProcess.start(Map.of(), "--impl", "nio", "--protocol", "echo",
                "--port", "0", "--duration", "80s");
             ClientTransport client = TransportTesting.newClient(new NioTransport(), Protocol.ECHO, false,
                     Map.of(NioTransport.BUFFER, "64k"))) {
            InetSocketAddress at = new InetSocketAddress("127.0.0.1", server.port);
            long before = directBytes();
            List<ClientConnection> connections = new ArrayList<>();
            CountDownLatch responses = new CountDownLatch(3 * CONNECTIONS);
            AtomicInteger errors = new AtomicInteger();
            ConnectionHandler counting = new ConnectionHandler() {
                @Override
                public void onResponse(long id, int status, PayloadView payload) {
                    responses.countDown();
                }

                @Override
                public void onWritten(long id) {
                }

                @Override
                public void onError(ErrorKind kind, String message) {
                    errors.incrementAndGet();
                }

                @Override
                public void onClosed() {
                }
            };
            try {
                for (int i = 0; i < CONNECTIONS; i++) {
                    connections.add(client.connect(at, RequestTemplate.echo(SIZE, i + 1), counting));
                }
                // Responses of 1000 bytes, three per connection: reads that end inside a response too.
                for (ClientConnection c : connections) {
                    for (long id = 1; id <= 3; id++) {
                        c.send(id);
                    }
                }
                assertTrue(responses.await(60, TimeUnit.SECONDS), responses.getCount() + " responses missing");
                long perConnection = (directBytes() - before) / CONNECTIONS;
                assertTrue(perConnection < BUFFER + 16 * 1024, "each connection holds " + perConnection
                        + " bytes of direct memory: more than its " + BUFFER + "-byte write buffer and a carry,"
                        + " so it reads into a buffer of its own");
                assertEquals(0, errors.get(), "no connection reported an error");
            } finally {
                connections.forEach(ClientConnection::close);
            }
        }
    }

    private static long directBytes() {
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (pool.getName().equals("direct")) {
                return pool.getMemoryUsed();
            }
        }
        throw new AssertionError("no direct buffer pool");
    }
}
