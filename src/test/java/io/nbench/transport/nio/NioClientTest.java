package io.nbench.transport.nio;

import io.nbench.transport.ClientContract;
import io.nbench.transport.Transport;
import java.util.Map;

class NioClientTest extends ClientContract {
    @Override
    protected Transport transport() {
        return new NioTransport();
    }

    @Override
    protected Map<String, String> buffers(String bytes) {
        // Heap buffers, the other option; with 64 bytes the client's write buffer holds one request, so
        // every window > 1 goes through the backlog.
        return Map.of(NioTransport.DIRECT, "false", NioTransport.BUFFER, bytes);
    }
}
