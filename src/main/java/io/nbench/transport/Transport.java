package io.nbench.transport;

import java.io.IOException;
import java.util.List;

/**
 * A network transport nbench can benchmark: one implementation per framework or I/O model, found with
 * {@link java.util.ServiceLoader} (a jar on the classpath can add one by listing its class in
 * {@code META-INF/services/io.nbench.transport.Transport}).
 *
 * <p>A transport only moves bytes and reports events. It never takes a timestamp, keeps a statistic or
 * decides when to send: the engine in {@code io.nbench.load} owns all timing, statistics and pacing, so
 * every transport is measured by exactly the same code.
 */
public interface Transport {

    /** The name used with {@code --impl}, e.g. {@code netty}. Lower case, no spaces. */
    String name();

    /** One line for {@code nbench list}. */
    String description();

    /**
     * Whether this transport can run in this JVM on this machine, and why not. May probe native
     * libraries, so it is called only by {@code nbench list} and when the transport is chosen.
     */
    Availability availability();

    /** The {@code -O} options this transport understands, each key prefixed with {@code name() + "."}. */
    List<TransportOption> options();

    /**
     * What "written" means for {@code --measure send} with this client transport, e.g. "the bytes were
     * handed to the kernel by write(2)"; {@code null} when the transport has no honest such event.
     */
    String writtenEvent();

    /**
     * Extra lines for {@code nbench list}, e.g. which native I/O types are available and why not. May
     * probe native libraries.
     */
    default List<String> details() {
        return List.of();
    }

    /**
     * True for in-JVM transports (no kernel, no socket); they interoperate only with each other and run
     * only in-process.
     */
    default boolean inJvm() {
        return false;
    }

    /**
     * The most memory one server connection can hold with these settings, whatever its peer sends or
     * fails to read (unanswered input and queued responses, not the kernel's socket buffers); 0 when not
     * known. The server's default {@code --max-connections} divides the JVM's memory by it, so that what
     * the server buffers is bounded in total as well as per connection.
     */
    default long serverMemoryPerConnection(ServerSettings settings) {
        return 0;
    }

    /**
     * Whether this transport's server can set TCP_FASTOPEN on its listening socket with these {@code -O} options
     * ({@link ListenSettings#tcpFastOpen()}), and if not, why, in words that say what to change. The JDK's
     * sockets have no such option, so a transport on them keeps this default. Whether the kernel lets a server
     * use it ({@code net.ipv4.tcp_fastopen}) is for {@link #startServer} to say.
     */
    default Availability serverTcpFastOpen(OptionValues options) {
        return Availability.no(name() + (inJvm() ? " has no socket" : " cannot set it: the JDK's sockets have no "
                + "TCP_FASTOPEN"));
    }

    /**
     * Whether this transport's server and client can run {@code --tls} with these {@code -O} options, and if not,
     * why, in words that say what to change. A transport keeps this default until it has TLS: a run with
     * {@code --tls} is then refused, never run in plain text.
     */
    default Availability tls(OptionValues options) {
        return Availability.no(name() + " has no TLS yet");
    }

    /** Binds and starts a server; returns once it accepts connections. */
    RunningServer startServer(ServerSettings settings, ServerEvents events) throws IOException;

    /** Creates the client side (event loops, buffers); connections are opened with {@link ClientTransport#connect}. */
    ClientTransport newClient(ClientSettings settings) throws IOException;
}
