package io.nbench.transport.nio;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.protocol.Protocol;
import io.nbench.protocol.RequestTemplate;
import io.nbench.transport.ClientConnection;
import io.nbench.transport.ClientTransport;
import io.nbench.transport.ConnectionHandler;
import io.nbench.transport.ErrorKind;
import io.nbench.transport.PayloadView;
import io.nbench.transport.TransportTesting;
import java.io.DataInputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The nio client copies a request's payload into its output buffer once and afterwards only stamps ids
 * over the copies, until a partial write shifts the buffer. Whatever the writes did, the peer must read
 * every request exactly, in order: here a peer that reads nothing until the client has queued 4 MB
 * (so the socket fills and writes are partial, at offsets that do not line up with the 1000-byte
 * requests), then reads and compares every byte.
 */
class NioRequestBytesTest {

    private static final int SIZE = 1000;
    private static final int REQUESTS = 4000;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void everyRequestArrivesExactWhateverTheWritesDid() throws Exception {
        RequestTemplate template = RequestTemplate.echo(SIZE, 11);
        try (ServerSocket peer = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
             ClientTransport client = TransportTesting.newClient(new NioTransport(), Protocol.ECHO, false,
                     Map.of("nio.buffer", "4k"))) {
            peer.setReceiveBufferSize(8192);
            ClientConnection connection = client.connect(
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), peer.getLocalPort()), template, IGNORE);
            try (Socket s = peer.accept()) {
                for (long id = 1; id <= REQUESTS; id++) {
                    connection.send(id); // the socket fills after a few hundred KiB: the rest waits in the client
                }
                DataInputStream in = new DataInputStream(s.getInputStream());
                byte[] got = new byte[SIZE];
                for (long id = 1; id <= REQUESTS; id++) {
                    in.readFully(got);
                    assertArrayEquals(template.encode(id), got, "request " + id);
                }
                assertTrue(s.getInputStream().available() == 0, "nothing beyond the requests sent");
            } finally {
                connection.close();
            }
        }
    }


    private static final ConnectionHandler IGNORE = new ConnectionHandler() {
        @Override
        public void onResponse(long id, int status, PayloadView payload) {
        }

        @Override
        public void onWritten(long id) {
        }

        @Override
        public void onError(ErrorKind kind, String message) {
        }

        @Override
        public void onClosed() {
        }
    };
}
