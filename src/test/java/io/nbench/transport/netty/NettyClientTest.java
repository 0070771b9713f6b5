package io.nbench.transport.netty;

import io.nbench.transport.ClientContract;
import io.nbench.transport.Transport;
import java.util.Map;

class NettyClientTest extends ClientContract {
    @Override
    protected Transport transport() {
        return new NettyTransport();
    }

    @Override
    protected Map<String, String> buffers(String bytes) {
        // A fixed receive buffer of that size for every read: frames arrive in pieces smaller than them.
        return Map.of(NettyTransport.RECV, "fixed:" + bytes);
    }
}
