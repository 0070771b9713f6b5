package io.nbench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.nbench.protocol.Protocol;
import io.nbench.testkit.ExternalTools;
import io.nbench.testkit.Runs;
import io.nbench.testkit.Transports;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The echo protocol against echo servers nbench did not write: socat (installed by .ci/run) and the C
 * reference server of ../shared/baseline (compiled here when its source and gcc are present). Every
 * client transport, window 1 and 16, payloads checked byte for byte.
 */
class ForeignEchoServerTest {

    private static final List<Process> SERVERS = new ArrayList<>();
    private static InetSocketAddress socat;
    private static InetSocketAddress cServer;

    @BeforeAll
    static void startServers() throws Exception {
        if (ExternalTools.onPath("socat")) {
            int port = freePort();
            socat = start(List.of("socat", "TCP4-LISTEN:" + port + ",bind=127.0.0.1,reuseaddr,fork", "PIPE"), port);
        }
        Path source = Path.of("..", "shared", "baseline", "echo_server.c");
        if (Files.isRegularFile(source) && ExternalTools.onPath("gcc")) {
            Path binary = Path.of("target", "baseline", "echo_server");
            Files.createDirectories(binary.getParent());
            Process cc = new ProcessBuilder("gcc", "-O2", "-pthread", "-o", binary.toString(), source.toString())
                    .inheritIO().start();
            if (cc.waitFor(60, TimeUnit.SECONDS) && cc.exitValue() == 0) {
                int port = freePort();
                cServer = start(List.of(binary.toString(), "-p", Integer.toString(port), "-b", "127.0.0.1"), port);
            }
        }
    }

    @AfterAll
    static void stopServers() throws InterruptedException {
        for (Process p : SERVERS) {
            p.destroy();
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        }
    }

    private static int freePort() throws IOException {
        return ExternalTools.freePort();
    }

    /** Starts a server process and waits (at most 10 s) until it accepts connections. */
    private static InetSocketAddress start(List<String> command, int port) throws Exception {
        SERVERS.add(ExternalTools.startListening(command, port));
        return new InetSocketAddress("127.0.0.1", port);
    }

    static Stream<Arguments> cases() {
        List<Arguments> args = new ArrayList<>();
        for (String server : List.of("socat", "c-echo-server")) {
            for (String client : Transports.network()) {
                for (int window : new int[] {1, 16}) {
                    args.add(Arguments.of(server, client, window));
                }
            }
        }
        return args.stream();
    }

    @ParameterizedTest(name = "{1} -> {0}, window {2}")
    @MethodSource("cases")
    void everyClientSpeaksEchoToAForeignServer(String server, String client, int window) {
        InetSocketAddress address = server.equals("socat") ? socat : cServer;
        assumeTrue(address != null, server + " is not available here (.ci/run installs socat; the C server needs "
                + "../shared/baseline and gcc)");
        Runs.Workload w = Runs.workload().protocol(Protocol.ECHO).window(window).size(1000).msgs(300)
                .verify(Verify.FULL);
        RunResult r = w.run(client, address);
        assertEquals(0, r.errors().total(), () -> r.errors().nonZero() + " " + r.firstErrors());
        assertEquals(w.expectedMessages(), r.summary().messages());
    }
}
