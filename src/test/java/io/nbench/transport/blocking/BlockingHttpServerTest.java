package io.nbench.transport.blocking;

import io.nbench.transport.HttpServerContract;
import io.nbench.transport.Transport;

class BlockingHttpServerTest extends HttpServerContract {
    @Override
    protected Transport transport() {
        return new BlockingTransport();
    }
}
