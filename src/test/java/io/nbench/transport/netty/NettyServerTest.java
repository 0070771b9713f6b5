package io.nbench.transport.netty;

import io.nbench.transport.ServerContract;
import io.nbench.transport.Transport;
import java.util.Map;
import java.util.function.Predicate;

class NettyServerTest extends ServerContract {
    @Override
    protected Transport transport() {
        return new NettyTransport();
    }

    /** On epoll each connection's event loop completes its delayed responses: no timer thread wakes, no hand-over. */
    @Override
    protected Predicate<String> delayCompleter() {
        return named(name -> name.startsWith("nbench-netty-server-"), "netty's event loops (nbench-netty-server-*)");
    }

    @Override
    protected Map.Entry<Map<String, String>, String> nativeExecutor() {
        return Map.entry(Map.of("netty.executor", "2"), "nbench-netty-executor");
    }
}
