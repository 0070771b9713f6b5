package io.nbench.transport.blocking;

import io.nbench.transport.Availability;
import io.nbench.transport.BaseTransport;
import io.nbench.transport.ClientSettings;
import io.nbench.transport.ClientTransport;
import io.nbench.transport.OptionValues;
import io.nbench.transport.RunningServer;
import io.nbench.transport.ServerEvents;
import io.nbench.transport.ServerSettings;
import io.nbench.transport.SocketSettings;
import io.nbench.transport.TransportOption;
import java.io.IOException;
import java.util.List;
import java.util.function.Supplier;

/**
 * Blocking {@code java.net.Socket}s with a thread per connection, on the server and the client. The
 * same code runs on platform threads ({@code blocking}) or virtual threads ({@code vthreads}, through
 * {@link #BlockingTransport(String, String, Supplier, Supplier)}).
 */
public class BlockingTransport extends BaseTransport {

    private final Supplier<Availability> availability;
    private final Supplier<ThreadMaker> threads;
    private final String bufferKey;

    /** {@code blocking}: platform threads. */
    public BlockingTransport() {
        this("blocking", "java.net.Socket, a platform thread per connection (server and client)",
                Availability::yes, () -> ThreadMaker.PLATFORM);
    }

    /**
     * A blocking transport named {@code name} whose threads come from {@code threads}, asked for only
     * when a server or client starts (after {@code availability} said yes).
     */
    public BlockingTransport(String name, String description, Supplier<Availability> availability,
                             Supplier<ThreadMaker> threads) {
        super(name, description, List.of(TransportOption.size(name + ".buffer", "64k", 64,
                "read buffer per connection and the client's write buffer (larger frames stream through the "
                        + "server's; the client's grow to one response or request)")),
                "OutputStream.write of the request returned: the kernel accepted its last byte");
        this.availability = availability;
        this.threads = threads;
        this.bufferKey = name + ".buffer";
    }

    @Override
    public Availability availability() {
        return availability.get();
    }

    private BlockingConfig config(OptionValues values, SocketSettings socket) throws IOException {
        Availability a = availability.get();
        if (!a.available()) {
            throw new IOException(name() + " is not available here: " + a.reason());
        }
        return new BlockingConfig(name(), values.integer(bufferKey), socket, threads.get());
    }

    /** The JDK's SSLSocket on both sides ({@link BlockingTls}). */
    @Override
    public Availability tls(OptionValues options) {
        return Availability.yes();
    }

    /** Its read and write buffers (every request streams through them); its thread's stack is not counted. */
    @Override
    public long serverMemoryPerConnection(ServerSettings settings) {
        return 2L * settings.options().integer(bufferKey);
    }

    @Override
    public RunningServer startServer(ServerSettings settings, ServerEvents events) throws IOException {
        return BlockingServer.start(config(settings.options(), settings.socket()), settings, events);
    }

    @Override
    public ClientTransport newClient(ClientSettings settings) throws IOException {
        return new BlockingClient(settings, config(settings.options(), settings.socket()));
    }
}
