package io.nbench.cli;

import io.nbench.client.ClientSpec;
import io.nbench.client.CouldNotRun;
import io.nbench.client.ResolvedTransport;
import io.nbench.protocol.Protocol;
import io.nbench.protocol.ProtocolRegistry;
import io.nbench.transport.IoThreads;
import io.nbench.transport.SocketSettings;
import io.nbench.transport.Transport;
import io.nbench.transport.TransportOption;
import io.nbench.transport.TransportRegistry;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** Options shared by client and server: transport, port, protocol, sockets, {@code -O}. */
final class TransportOptions {

    @ArgumentFiles.CommaList
    @Option(names = "--impl", paramLabel = "NAME", defaultValue = TransportRegistry.DEFAULT,
            completionCandidates = TransportNames.class,
            description = "Transport (default: ${DEFAULT-VALUE}); see nbench list. The client sweeps a list: netty,mina.")
    String impl;

    @Option(names = "--port", paramLabel = "N", defaultValue = "7007", description = "TCP port (default: ${DEFAULT-VALUE}).")
    int port;

    /** Its values, default and help come from {@link ProtocolRegistry}: a new protocol needs no change here. */
    @Option(names = "--protocol", paramLabel = "${nbench.protocols}", defaultValue = "${nbench.default-protocol}",
            converter = ProtocolConverter.class, completionCandidates = ProtocolNames.class,
            description = "Wire protocol: ${nbench.protocol-help}. Default: ${DEFAULT-VALUE}.")
    Protocol protocol;

    @Option(names = "--io-threads", paramLabel = "N", defaultValue = "0",
            description = "I/O threads (event loops, selector loops). Default: 0, automatic: the server takes every "
                    + "core (${nbench.cores}); the client half of them, at least 1, when its server is on this machine "
                    + "(loopback or a local address: they share the cores), all of them otherwise, and never more "
                    + "than --connections. The effective number is in the transport line and the result.")
    int ioThreads;

    @Option(names = "--tcp-nodelay", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "TCP_NODELAY on every socket (default: on; --no-tcp-nodelay turns it off).")
    boolean tcpNoDelay;

    @Option(names = "--sndbuf", paramLabel = "SIZE", converter = Converters.Size.class, defaultValue = "0",
            description = "SO_SNDBUF, e.g. 256k (default: 0, the OS's own, autotuned on Linux).")
    int sndbuf;

    @Option(names = "--rcvbuf", paramLabel = "SIZE", converter = Converters.Size.class, defaultValue = "0",
            description = "SO_RCVBUF, e.g. 256k (default: 0, the OS's own, autotuned on Linux).")
    int rcvbuf;

    @Option(names = "--keepalive", negatable = true, defaultValue = "false", fallbackValue = "true",
            description = "SO_KEEPALIVE on every socket: the kernel probes a connection idle for "
                    + "net.ipv4.tcp_keepalive_time (default: off, the OS's own; --keepalive turns it on).")
    boolean keepAlive;

    @Option(names = "-O", paramLabel = "KEY=VALUE", mapFallbackValue = "",
            completionCandidates = TransportOptionKeys.class,
            description = "Transport-specific option, repeatable, e.g. -O netty.io=io_uring (netty's I/O: auto, nio, "
                    + "epoll or io_uring) or -O mina.executor=4 (default: none; nbench list shows each option, its "
                    + "default and what this machine has, e.g. whether io_uring is available).")
    Map<String, String> transportOptions = new LinkedHashMap<>();

    /**
     * The server's transport with its {@code -O} options: an unknown name, key or value is a usage error
     * (exit 2); a transport that cannot run here is {@link CouldNotRun} (exit 1).
     */
    ResolvedTransport resolve(CommandSpec spec) throws CouldNotRun {
        return resolve(spec, TransportRegistry.load(), impl, transportOptions, false);
    }

    /** One transport by name with the given {@code -O} values; a bad name, key or value is a usage error. */
    static ResolvedTransport resolve(CommandSpec spec, TransportRegistry registry, String name,
                                     Map<String, String> given, boolean allowInJvm) throws CouldNotRun {
        try {
            return ResolvedTransport.resolve(registry, name, given, allowInJvm);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    /** The client's transports: {@code --impl} may be a comma list (a sweep dimension). */
    List<String> impls() {
        return splitList(impl);
    }

    /**
     * The {@code -O} keys given a comma list, each a sweep dimension ({@code -O netty.io=nio,epoll}), and
     * the ones given one value, which hold for every combination.
     */
    Map<String, List<String>> transportOptionLists() {
        Map<String, List<String>> lists = new LinkedHashMap<>();
        transportOptions.forEach((k, v) -> lists.put(k, splitList(v)));
        return lists;
    }

    private static List<String> splitList(String text) {
        List<String> values = new ArrayList<>();
        for (String part : text.split(",", -1)) {
            values.add(part.strip());
        }
        return values;
    }

    /** Negative thread counts are meaningless (0 is the automatic default, see {@link IoThreads}). */
    void checkIoThreads(CommandSpec spec, String option) {
        checkIoThreads(spec, option, ioThreads);
    }

    static void checkIoThreads(CommandSpec spec, String option, int value) {
        if (value < 0) {
            throw new ParameterException(spec.commandLine(), option + " " + value
                    + " is negative: use 0 (automatic) or a positive count");
        }
    }

    /** Every {@code -O} key must belong to a transport in use ({@link ResolvedTransport#optionNotInUse}). */
    void checkOptionsInUse(CommandSpec spec, TransportRegistry registry, List<String> impls, String fix) {
        String problem = ResolvedTransport.optionNotInUse(registry, transportOptions.keySet(), impls, fix);
        if (problem != null) {
            throw new ParameterException(spec.commandLine(), problem);
        }
    }

    /** The transport that declares this {@code -O} key, or null if none does. */
    static Transport owner(TransportRegistry registry, String key) {
        return ResolvedTransport.owner(registry, key);
    }

    SocketSettings socket() {
        return new SocketSettings(ioThreads, tcpNoDelay, sndbuf, rcvbuf, keepAlive);
    }

    /** The client's transport options, typed ({@link ChildClient}). */
    ClientSpec.Transports clientSettings() {
        return new ClientSpec.Transports(impls(), port, protocol, socket(), transportOptions);
    }

    /** Sets these options to a child client's settings. */
    void set(ClientSpec.Transports t) {
        impl = String.join(",", t.impls());
        port = t.port();
        protocol = t.protocol();
        ioThreads = t.socket().ioThreads();
        tcpNoDelay = t.socket().tcpNoDelay();
        sndbuf = t.socket().sndbuf();
        rcvbuf = t.socket().rcvbuf();
        keepAlive = t.socket().keepAlive();
        transportOptions = new LinkedHashMap<>(t.options());
    }

    /**
     * Sets what {@code --protocol}'s help shows: the registry's names ({@code ${nbench.protocols}}), the
     * default ({@code ${nbench.default-protocol}}) and what each is ({@code ${nbench.protocol-help}}).
     */
    static void describeProtocols() {
        ProtocolRegistry registry = ProtocolRegistry.load();
        System.setProperty("nbench.protocols", String.join("|", registry.names()));
        System.setProperty("nbench.default-protocol", registry.defaultProtocol().label());
        System.setProperty("nbench.protocol-help", registry.help());
    }

    static final class ProtocolConverter implements picocli.CommandLine.ITypeConverter<Protocol> {
        @Override
        public Protocol convert(String value) {
            try {
                return ProtocolRegistry.load().get(value);
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    /** {@code --protocol}'s values for shell completion. */
    static final class ProtocolNames implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return ProtocolRegistry.load().names().iterator();
        }
    }

    /** {@code --impl}'s (and run's {@code --servers}') values for shell completion: the registry's transports. */
    static final class TransportNames implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return TransportRegistry.load().names().iterator();
        }
    }

    /**
     * {@code -O}'s values for shell completion: {@code key=value} for each value of an option with a fixed set
     * ({@code netty.io=epoll}), {@code key=} for the others, of every transport in the registry.
     */
    static final class TransportOptionKeys implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            List<String> keys = new ArrayList<>();
            for (Transport t : TransportRegistry.load().all()) {
                for (TransportOption o : t.options()) {
                    String values = o.values();
                    if (values != null && values.matches("[a-z0-9_-]+(\\|[a-z0-9_-]+)+")) {
                        for (String v : values.split("\\|")) {
                            keys.add(o.key() + "=" + v);
                        }
                    } else {
                        keys.add(o.key() + "=");
                    }
                }
            }
            return keys.iterator();
        }
    }
}
