package io.nbench.transport.blocking;

import io.nbench.transport.ClientContract;
import io.nbench.transport.Transport;
import java.util.Map;

class BlockingClientTest extends ClientContract {
    @Override
    protected Transport transport() {
        return new BlockingTransport();
    }

    @Override
    protected Map<String, String> buffers(String bytes) {
        return Map.of("blocking.buffer", bytes);
    }
}
