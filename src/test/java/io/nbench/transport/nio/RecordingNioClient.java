package io.nbench.transport.nio;

import io.nbench.protocol.RequestTemplate;
import io.nbench.transport.ClientConnection;
import io.nbench.transport.ClientTransport;
import io.nbench.transport.ConnectionHandler;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;

/** The nio client, keeping each connection it makes so that a test can read the connections' counters. */
final class RecordingNioClient implements ClientTransport {

    private final ClientTransport nio;
    private final List<NioClientConnection> into;

    RecordingNioClient(ClientTransport nio, List<NioClientConnection> into) {
        this.nio = nio;
        this.into = into;
    }

    @Override
    public ClientConnection connect(InetSocketAddress remote, RequestTemplate template, ConnectionHandler handler)
            throws IOException {
        ClientConnection c = nio.connect(remote, template, handler);
        into.add((NioClientConnection) c);
        return c;
    }

    @Override
    public Map<String, String> effectiveConfig() {
        return nio.effectiveConfig();
    }

    @Override
    public void close() {
        nio.close();
    }
}
