package io.nbench.testkit;

import io.nbench.protocol.Protocol;
import io.nbench.transport.OptionValues;
import io.nbench.transport.RunningServer;
import io.nbench.transport.ServerEvents;
import io.nbench.transport.ServerRuntime;
import io.nbench.transport.ServerSettings;
import io.nbench.transport.SocketSettings;
import io.nbench.transport.Transport;
import io.nbench.transport.TransportRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Servers shared by every test in the JVM: one per transport and protocol, started on 127.0.0.1 port 0
 * the first time a test asks for it, closed when the test JVM exits. Starting a server per test would
 * cost more than most tests.
 */
public final class TestServers {

    public static final int MAX_FRAME = 16 * 1024 * 1024;

    private static final Map<String, RunningServer> SERVERS = new ConcurrentHashMap<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> SERVERS.values().forEach(RunningServer::close)));
    }

    private TestServers() {
    }

    /** The shared server of this transport and protocol, with default options. */
    public static RunningServer get(String transport, Protocol protocol) {
        return SERVERS.computeIfAbsent(transport + "/" + protocol, k -> start(transport, protocol, ServerEvents.NONE));
    }

    /** A new server of one's own (close it); for tests that need special options or their own counters. */
    public static RunningServer start(String transportName, Protocol protocol, ServerEvents events) {
        return start(transportName, protocol, events, Map.of(), new InetSocketAddress("127.0.0.1", 0));
    }

    public static RunningServer start(String transportName, Protocol protocol, ServerEvents events,
                                      Map<String, String> options, InetSocketAddress bind) {
        return start(transportName, protocol, MAX_FRAME, events, options, bind);
    }

    /** A new server of one's own whose requests cost what {@code runtime} says (close it). */
    public static RunningServer start(String transportName, Protocol protocol, ServerEvents events,
                                      Map<String, String> options, ServerRuntime runtime) {
        return start(transportName, protocol, MAX_FRAME, events, options, new InetSocketAddress("127.0.0.1", 0),
                runtime);
    }

    /** A new server of one's own with its own --max-frame (close it). */
    public static RunningServer start(String transportName, Protocol protocol, int maxFrame, ServerEvents events,
                                      Map<String, String> options, InetSocketAddress bind) {
        return start(transportName, protocol, maxFrame, events, options, bind, ServerRuntime.INLINE);
    }

    private static RunningServer start(String transportName, Protocol protocol, int maxFrame, ServerEvents events,
                                       Map<String, String> options, InetSocketAddress bind, ServerRuntime runtime) {
        TransportRegistry registry = TransportRegistry.load();
        Transport t = registry.get(transportName);
        OptionValues values = registry.resolveOptions(t, options);
        try {
            return t.startServer(new ServerSettings(bind, protocol, new SocketSettings(2, true, 0, 0), maxFrame, values,
                    null, runtime),
                    events);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
