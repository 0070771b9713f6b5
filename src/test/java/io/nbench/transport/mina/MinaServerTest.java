package io.nbench.transport.mina;

import io.nbench.transport.ServerContract;
import io.nbench.transport.Transport;

class MinaServerTest extends ServerContract {
    @Override
    protected Transport transport() {
        return new MinaTransport();
    }

    @Override
    protected java.util.Map.Entry<java.util.Map<String, String>, String> nativeExecutor() {
        return java.util.Map.entry(java.util.Map.of("mina.executor", "2"), "nbench-mina-executor");
    }
}
