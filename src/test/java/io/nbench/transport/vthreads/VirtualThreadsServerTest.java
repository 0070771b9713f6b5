package io.nbench.transport.vthreads;

import io.nbench.transport.ServerContract;
import io.nbench.transport.Transport;

/** Skipped (assumption) on JDKs before 21, where the transport is unavailable. */
class VirtualThreadsServerTest extends ServerContract {
    @Override
    protected Transport transport() {
        return new VirtualThreadsTransport();
    }
}
