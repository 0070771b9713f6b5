package io.nbench.transport.vthreads;

import io.nbench.transport.blocking.BlockingTransport;

/**
 * The blocking transport on virtual threads (JDK 21+): the same sockets, parsing and locking as
 * {@code blocking}, only the threads differ, so the two compare the thread model and nothing else.
 */
public final class VirtualThreadsTransport extends BlockingTransport {

    public VirtualThreadsTransport() {
        super("vthreads", "java.net.Socket, a virtual thread per connection (server and client; Java 21+)",
                VirtualThreads::availability, VirtualThreads::maker);
    }
}
