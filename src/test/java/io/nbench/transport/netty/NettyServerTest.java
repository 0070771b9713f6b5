package io.nbench.transport.netty;

import io.nbench.transport.ServerContract;
import io.nbench.transport.Transport;

class NettyServerTest extends ServerContract {
    @Override
    protected Transport transport() {
        return new NettyTransport();
    }
}
