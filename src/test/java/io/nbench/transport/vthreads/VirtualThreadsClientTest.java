package io.nbench.transport.vthreads;

import io.nbench.transport.ClientContract;
import io.nbench.transport.Transport;
import java.util.Map;

/** Skipped (assumption) on JDKs before 21, where the transport is unavailable. */
class VirtualThreadsClientTest extends ClientContract {
    @Override
    protected Transport transport() {
        return new VirtualThreadsTransport();
    }

    @Override
    protected Map<String, String> buffers(String bytes) {
        return Map.of("vthreads.buffer", bytes);
    }
}
