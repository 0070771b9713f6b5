package io.nbench.transport.nio;

import io.nbench.transport.Availability;
import io.nbench.transport.BaseTransport;
import io.nbench.transport.ClientSettings;
import io.nbench.transport.ClientTransport;
import io.nbench.transport.OptionValues;
import io.nbench.transport.RunningServer;
import io.nbench.transport.ServerEvents;
import io.nbench.transport.ServerSettings;
import io.nbench.transport.TransportOption;
import java.io.IOException;
import java.util.List;

/**
 * Plain JDK NIO: selector loops written by hand, no framework. The baseline the frameworks are judged
 * against: what a careful user gets from {@code java.nio} alone.
 */
public final class NioTransport extends BaseTransport {

    static final String DIRECT = "nio.direct";
    static final String BUFFER = "nio.buffer";

    private static final List<TransportOption> OPTIONS = List.of(
            TransportOption.bool(DIRECT, true,
                    "direct (off-heap) connection buffers; false = heap buffers, which the JDK copies through a "
                            + "per-thread direct buffer on every read and write"),
            TransportOption.size(BUFFER, "64k", 64,
                    "read and write buffer per connection (larger frames stream through it; the client's grows "
                            + "to one response or request, and it reads into and writes from one buffer per I/O thread)"));

    public NioTransport() {
        super("nio", "plain JDK NIO selector loops, no framework: the baseline", OPTIONS,
                "the request's last byte was accepted by SocketChannel.write (copied into the kernel's send buffer)");
    }

    /** The JDK's SSLEngine on both sides ({@link NioTls}). */
    @Override
    public Availability tls(OptionValues options) {
        return Availability.yes();
    }

    /** Its read and write buffers: every request streams through them. */
    @Override
    public long serverMemoryPerConnection(ServerSettings settings) {
        return 2L * settings.options().integer(BUFFER);
    }

    @Override
    public RunningServer startServer(ServerSettings settings, ServerEvents events) throws IOException {
        return NioServer.start(settings, events);
    }

    @Override
    public ClientTransport newClient(ClientSettings settings) throws IOException {
        return new NioClient(settings);
    }
}
