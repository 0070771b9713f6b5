package io.nbench.transport.vthreads;

import io.nbench.transport.HttpServerContract;
import io.nbench.transport.Transport;

class VirtualThreadsHttpServerTest extends HttpServerContract {
    @Override
    protected Transport transport() {
        return new VirtualThreadsTransport();
    }
}
