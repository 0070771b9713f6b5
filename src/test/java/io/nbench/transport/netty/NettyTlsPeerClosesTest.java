package io.nbench.transport.netty;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.protocol.Protocol;
import io.nbench.protocol.RequestTemplate;
import io.nbench.testkit.NoConnectionEvents;
import io.nbench.transport.ClientSettings;
import io.nbench.transport.ClientTls;
import io.nbench.transport.ClientTransport;
import io.nbench.transport.OptionValues;
import io.nbench.transport.SocketSettings;
import io.nbench.transport.Vectors;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A TLS connect to a peer that closes at once (a plain server reading the ClientHello as a frame, here one that
 * resets every connection once it has read the ClientHello's first bytes) is a handshake failure, every time. The channel can be closed, and Netty
 * can have taken its handlers out of the pipeline, before the connecting thread looks at the handshake: CI once
 * saw {@code Cannot invoke "SslHandler.handshakeFuture()" because "ssl" is null} instead of the one-line error.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class NettyTlsPeerClosesTest {

    private static final int CONNECTS = 300;

    @Test
    void aPeerThatResetsAtOnceIsAHandshakeFailureEveryTime() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, CONNECTS, InetAddress.getLoopbackAddress())) {
            Thread resetter = new Thread(() -> resetEvery(listener), "resetter");
            resetter.setDaemon(true);
            resetter.start();
            NettyTransport t = new NettyTransport();
            ClientTls tls = new ClientTls(List.of("TLSv1.3", "TLSv1.2"), List.of(), List.of(), true, "127.0.0.1");
            ClientSettings settings = new ClientSettings(Protocol.FRAMED, new SocketSettings(1, true, 0, 0),
                    Duration.ofSeconds(5), false, Vectors.MAX_FRAME, OptionValues.resolve(t.options(), Map.of()), tls);
            InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), listener.getLocalPort());
            try (ClientTransport client = t.newClient(settings)) {
                for (int i = 0; i < CONNECTS; i++) {
                    int attempt = i;
                    IOException e = assertThrows(IOException.class, () -> client.connect(address,
                            RequestTemplate.framed(64, 64, attempt), new NoConnectionEvents()),
                            "connect " + attempt);
                    assertTrue(e.getMessage().startsWith("TLS handshake failed ("), "connect " + attempt + ": "
                            + e.getMessage());
                }
            }
        }
    }

    private static void resetEvery(ServerSocket listener) {
        while (!listener.isClosed()) {
            try (Socket s = listener.accept()) {
                s.getInputStream().read(new byte[512]); // the ClientHello's first bytes, as a plain server reads them
                s.setSoLinger(true, 0); // RST on close, at once
            } catch (IOException closed) {
                if (listener.isClosed()) {
                    return;
                }
            }
        }
    }
}
