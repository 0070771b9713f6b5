package io.nbench.transport.netty;

import io.nbench.transport.ServerContract;
import io.nbench.transport.Transport;

class NettyServerTest extends ServerContract {
    @Override
    protected Transport transport() {
        return new NettyTransport();
    }

    /** On epoll each connection's event loop completes its delayed responses: no timer thread wakes, no hand-over. */
    @Override
    protected java.util.function.Predicate<String> delayCompleter() {
        return named(name -> name.startsWith("nbench-netty-server-"), "netty's event loops (nbench-netty-server-*)");
    }

    @Override
    protected java.util.Map.Entry<java.util.Map<String, String>, String> nativeExecutor() {
        return java.util.Map.entry(java.util.Map.of("netty.executor", "2"), "nbench-netty-executor");
    }
}
