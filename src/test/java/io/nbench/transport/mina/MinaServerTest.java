package io.nbench.transport.mina;

import io.nbench.transport.ServerContract;
import io.nbench.transport.Transport;
import java.util.Map;

class MinaServerTest extends ServerContract {
    @Override
    protected Transport transport() {
        return new MinaTransport();
    }

    @Override
    protected Map.Entry<Map<String, String>, String> nativeExecutor() {
        return Map.entry(Map.of("mina.executor", "2"), "nbench-mina-executor");
    }
}
