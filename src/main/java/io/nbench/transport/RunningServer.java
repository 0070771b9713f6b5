package io.nbench.transport;

import java.net.InetSocketAddress;
import java.util.Map;

/** A started server: where it listens, what it really runs with, and how to stop it. */
public interface RunningServer extends AutoCloseable {

    /** The bound address (the real port when port 0 was asked for). */
    InetSocketAddress address();

    /** Effective configuration for the output header, e.g. {@code io=epoll, allocator=adaptive}. */
    Map<String, String> effectiveConfig();

    /** Stops accepting, closes every connection and releases threads; waits for them to end. */
    @Override
    void close();
}
