package io.nbench.transport.mina;

import io.nbench.transport.ClientContract;
import io.nbench.transport.Transport;
import java.util.Map;

class MinaClientTest extends ClientContract {
    @Override
    protected Transport transport() {
        return new MinaTransport();
    }

    @Override
    protected Map<String, String> buffers(String bytes) {
        // Read buffer pinned to that size (MINA would otherwise grow it): frames arrive in pieces.
        String prefix = MinaTransport.PREFIX;
        return Map.of(prefix + MinaTransport.READ_BUFFER, bytes, prefix + MinaTransport.READ_BUFFER_MIN, bytes,
                prefix + MinaTransport.READ_BUFFER_MAX, bytes);
    }
}
