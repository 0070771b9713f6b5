package io.nbench.transport.netty;

import io.nbench.transport.HttpServerContract;
import io.nbench.transport.Transport;

class NettyHttpServerTest extends HttpServerContract {
    @Override
    protected Transport transport() {
        return new NettyTransport();
    }
}
