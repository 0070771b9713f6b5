package io.nbench.transport.blocking;

import io.nbench.transport.ClientContract;
import io.nbench.transport.Transport;

class BlockingClientTest extends ClientContract {
    @Override
    protected Transport transport() {
        return new BlockingTransport();
    }
}
