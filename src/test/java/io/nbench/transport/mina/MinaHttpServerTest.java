package io.nbench.transport.mina;

import io.nbench.transport.HttpServerContract;
import io.nbench.transport.Transport;

class MinaHttpServerTest extends HttpServerContract {
    @Override
    protected Transport transport() {
        return new MinaTransport();
    }
}
