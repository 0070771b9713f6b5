package io.nbench.transport.vthreads;

import io.nbench.transport.ClientContract;
import io.nbench.transport.Transport;

/** Skipped (assumption) on JDKs before 21, where the transport is unavailable. */
class VirtualThreadsClientTest extends ClientContract {
    @Override
    protected Transport transport() {
        return new VirtualThreadsTransport();
    }
}
