package io.nbench.transport.mina;

import io.nbench.transport.BaseTransport;
import io.nbench.transport.ClientSettings;
import io.nbench.transport.ClientTransport;
import io.nbench.transport.RunningServer;
import io.nbench.transport.ServerEvents;
import io.nbench.transport.ServerSettings;
import io.nbench.transport.TransportOption;
import java.io.IOException;
import java.util.List;

/**
 * Apache MINA 2.2's in-JVM VmPipe with the same codec and handlers as {@code mina}: the framework's cost
 * without the kernel. The port of the server's bind address (and of the client's remote address) is the
 * {@code VmPipeAddress} port.
 */
public final class MinaVmPipeTransport extends BaseTransport {

    static final String PREFIX = "mina-vmpipe.";

    private static final List<TransportOption> OPTIONS = List.of(
            MinaTransport.statsOption(PREFIX),
            MinaTransport.directOption(PREFIX),
            MinaTransport.allocatorOption(PREFIX));

    /** No written event: VmPipe "writes" by running the peer's filter chain, with no kernel hand-off. */
    public MinaVmPipeTransport() {
        super("mina-vmpipe", "Apache MINA 2.2 VmPipeAcceptor/VmPipeConnector (in-JVM), same codec as mina", OPTIONS,
                null);
    }

    @Override
    public boolean inJvm() {
        return true;
    }

    @Override
    public RunningServer startServer(ServerSettings settings, ServerEvents events) throws IOException {
        return MinaServer.start(settings, events, new MinaConfig(PREFIX, settings.options(), settings.socket(), true));
    }

    @Override
    public ClientTransport newClient(ClientSettings settings) throws IOException {
        return new MinaClient(settings, new MinaConfig(PREFIX, settings.options(), settings.socket(), true));
    }
}
