package io.nbench.transport.netty;

import io.nbench.transport.ServerContract;
import io.nbench.transport.Transport;

class NettyServerTest extends ServerContract {
    @Override
    protected Transport transport() {
        return new NettyTransport();
    }

    @Override
    protected java.util.Map.Entry<java.util.Map<String, String>, String> nativeExecutor() {
        return java.util.Map.entry(java.util.Map.of("netty.executor", "2"), "nbench-netty-executor");
    }
}
