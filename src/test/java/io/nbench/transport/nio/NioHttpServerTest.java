package io.nbench.transport.nio;

import io.nbench.transport.HttpServerContract;
import io.nbench.transport.Transport;

class NioHttpServerTest extends HttpServerContract {
    @Override
    protected Transport transport() {
        return new NioTransport();
    }
}
