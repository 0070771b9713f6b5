package io.nbench.transport.nio;

import io.nbench.transport.ServerContract;
import io.nbench.transport.Transport;

class NioServerTest extends ServerContract {
    @Override
    protected Transport transport() {
        return new NioTransport();
    }
}
