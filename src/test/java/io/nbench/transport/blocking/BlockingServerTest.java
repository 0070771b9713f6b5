package io.nbench.transport.blocking;

import io.nbench.transport.ServerContract;
import io.nbench.transport.Transport;

class BlockingServerTest extends ServerContract {
    @Override
    protected Transport transport() {
        return new BlockingTransport();
    }
}
