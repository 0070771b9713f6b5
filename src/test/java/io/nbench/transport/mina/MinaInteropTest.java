package io.nbench.transport.mina;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.load.Driver;
import io.nbench.load.LoadSpec;
import io.nbench.load.Measure;
import io.nbench.protocol.Protocol;
import io.nbench.transport.ClientTransport;
import io.nbench.transport.RunningServer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The mina client against the netty and mina servers, and the netty client against the mina server,
 * through the real engine: exact message counts, no errors, every response byte verified.
 */
@Timeout(120)
class MinaInteropTest {

    private static final Map<String, Map<Protocol, RunningServer>> SERVERS = new HashMap<>();

    private static Set<Thread> threadsBefore;

    @BeforeAll
    static void start() throws Exception {
        threadsBefore = MinaTestKit.liveThreads();
        for (String impl : List.of("mina", "netty")) {
            Map<Protocol, RunningServer> byProtocol = new LinkedHashMap<>();
            for (Protocol p : List.of(Protocol.FRAMED, Protocol.ECHO)) {
                byProtocol.put(p, MinaTestKit.server(impl, p, new MinaTestKit.CountingEvents(), Map.of()));
            }
            SERVERS.put(impl, byProtocol);
        }
    }

    @AfterAll
    static void stop() throws Exception {
        for (Map<Protocol, RunningServer> m : SERVERS.values()) {
            for (RunningServer s : m.values()) {
                s.close();
            }
        }
        MinaTestKit.assertNoNewMinaThreads(threadsBefore);
    }

    static Stream<Arguments> cases() {
        List<Arguments> list = new ArrayList<>();
        String[][] pairs = {{"mina", "netty"}, {"netty", "mina"}, {"mina", "mina"}};
        for (String[] pair : pairs) {
            for (Protocol protocol : List.of(Protocol.FRAMED, Protocol.ECHO)) {
                for (int size : new int[] {1, 100, 100 * 1024}) {
                    for (int window : new int[] {1, 16}) {
                        for (Driver driver : Driver.values()) {
                            list.add(Arguments.of(pair[0], pair[1], protocol, size, window, driver, Measure.RTT));
                        }
                    }
                }
            }
            // --measure send: framed, one-way (the CLI's default) and with responses still verified.
            for (int size : new int[] {1, 100, 100 * 1024}) {
                for (Driver driver : Driver.values()) {
                    list.add(Arguments.of(pair[0], pair[1], Protocol.FRAMED, size, 16, driver, Measure.SEND));
                }
            }
        }
        return list.stream();
    }

    @ParameterizedTest(name = "{0} client -> {1} server, {2}, size {3}, window {4}, {5}, {6}")
    @MethodSource("cases")
    void engineRunIsExactAndVerified(String clientImpl, String serverImpl, Protocol protocol, int size, int window,
                                     Driver driver, Measure measure) throws Exception {
        int msgs = size > 10_000 ? 50 : 200;
        int responseSize = measure == Measure.SEND && size != 100 ? 0 : size;
        LoadSpec spec = MinaTestKit.spec(2, 2, msgs, 1, 2, size, responseSize, window, measure, driver, protocol);
        RunningServer server = SERVERS.get(serverImpl).get(protocol);
        try (ClientTransport client = MinaTestKit.client(clientImpl, protocol, measure == Measure.SEND, Map.of())) {
            MinaTestKit.runClean(client, server.address(), spec);
        }
    }
}
