package io.nbench.transport.nio;

import io.nbench.transport.OptionValues;
import io.nbench.transport.SocketSettings;
import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.channels.spi.SelectorProvider;
import java.util.LinkedHashMap;
import java.util.Map;

/** The resolved nio.* options and shared socket settings, applied alike by client and server. */
final class NioConfig {

    final boolean direct;
    final int bufferSize;
    final int ioThreads;
    final SocketSettings socket;

    NioConfig(OptionValues options, SocketSettings socket) {
        this.direct = options.bool(NioTransport.DIRECT);
        this.bufferSize = options.integer(NioTransport.BUFFER);
        this.socket = socket;
        this.ioThreads = socket.ioThreads(); // resolved by IoThreads before it gets here
    }

    ByteBuffer allocate(int capacity) {
        return direct ? ByteBuffer.allocateDirect(capacity) : ByteBuffer.allocate(capacity);
    }

    void apply(SocketChannel channel) throws IOException {
        channel.setOption(StandardSocketOptions.TCP_NODELAY, socket.tcpNoDelay());
        channel.setOption(StandardSocketOptions.SO_KEEPALIVE, socket.keepAlive());
        if (socket.sndbuf() > 0) {
            channel.setOption(StandardSocketOptions.SO_SNDBUF, socket.sndbuf());
        }
        if (socket.rcvbuf() > 0) {
            channel.setOption(StandardSocketOptions.SO_RCVBUF, socket.rcvbuf());
        }
    }

    Map<String, String> describe() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("selector", SelectorProvider.provider().getClass().getSimpleName());
        m.put("io-threads", Integer.toString(ioThreads));
        m.put("buffers", direct ? "direct" : "heap");
        m.put("buffer", Integer.toString(bufferSize));
        m.putAll(socket.describe());
        return m;
    }
}
