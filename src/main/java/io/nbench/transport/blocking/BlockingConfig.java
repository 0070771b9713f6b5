package io.nbench.transport.blocking;

import io.nbench.transport.SocketSettings;
import java.io.IOException;
import java.net.Socket;
import java.util.LinkedHashMap;
import java.util.Map;

/** The resolved {@code <name>.buffer} option, the thread kind and the shared socket settings. */
final class BlockingConfig {

    final String name;
    final int bufferSize;
    final SocketSettings socket;
    final ThreadMaker threads;

    BlockingConfig(String name, int bufferSize, SocketSettings socket, ThreadMaker threads) {
        this.name = name;
        this.bufferSize = bufferSize;
        this.socket = socket;
        this.threads = threads;
    }

    /** Before connect (client) or on the accepted socket (server). */
    void apply(Socket s) throws IOException {
        s.setTcpNoDelay(socket.tcpNoDelay());
        s.setKeepAlive(socket.keepAlive());
        if (socket.sndbuf() > 0) {
            s.setSendBufferSize(socket.sndbuf());
        }
        if (socket.rcvbuf() > 0) {
            s.setReceiveBufferSize(socket.rcvbuf());
        }
    }

    Map<String, String> describe() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("threads", threads.describe());
        m.put("buffer", Integer.toString(bufferSize));
        m.putAll(socket.describe());
        m.put("io-threads", "not used (one reader thread per connection)");
        return m;
    }
}
