package io.nbench.transport.nio;

import io.nbench.transport.ClientContract;
import io.nbench.transport.Transport;

class NioClientTest extends ClientContract {
    @Override
    protected Transport transport() {
        return new NioTransport();
    }
}
