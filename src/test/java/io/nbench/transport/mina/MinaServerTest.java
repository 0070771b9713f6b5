package io.nbench.transport.mina;

import io.nbench.transport.ServerContract;
import io.nbench.transport.Transport;

class MinaServerTest extends ServerContract {
    @Override
    protected Transport transport() {
        return new MinaTransport();
    }
}
