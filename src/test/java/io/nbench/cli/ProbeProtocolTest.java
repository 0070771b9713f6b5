package io.nbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nbench.client.ExitCode;
import io.nbench.protocol.ProbeProtocol;
import io.nbench.testkit.NbenchProcess;
import io.nbench.testkit.ServerProcess;
import io.nbench.testkit.Transports;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The recipe for a new wire protocol (issue 26): one class ({@link ProbeProtocol}) and one registry line (a
 * services file in {@code probe-protocol/}, on the class path of a child nbench only, as a user would add a
 * jar). Without any other change, {@code --protocol probe} parses, shows in the help and in shell completion,
 * and the real client drives it end to end through every client transport against a real
 * {@code nbench server --protocol probe} on every server transport, which answer it with the probe's own
 * server codec.
 */
class ProbeProtocolTest {

    private static final int MSGS = 50;
    private static final List<String> CLIENT_IMPLS = List.of("nio", "netty", "mina", "blocking");

    /** The directory whose services file registers the probe. */
    private static Path registryLine() {
        Path services = Path.of("target", "test-classes", "probe-protocol");
        assertTrue(Files.isDirectory(services), services + " (copied from src/test/resources)");
        return services.toAbsolutePath();
    }

    /** nbench's Main on this build's class path plus the directory that registers the probe. */
    private static List<String> nbench(String... args) throws IOException {
        List<String> command = new ArrayList<>(NbenchProcess.command(List.of(), "io.nbench.cli.Main",
                List.of(registryLine())));
        command.addAll(List.of(args));
        return command;
    }

    private static NbenchProcess.Result run(Path dir, String... args) throws Exception {
        return NbenchProcess.run(dir, nbench(args));
    }

    /**
     * Every server transport this JVM can run (vthreads from JDK 21), answering on the I/O thread and on
     * nbench's business pool (whole responses taken out of the codec's output).
     */
    static Stream<Arguments> servers() {
        return Transports.network().stream().flatMap(impl -> Stream.of(Arguments.of(impl, List.of()),
                Arguments.of(impl, List.of("--executor-threads", "2:2"))));
    }

    @ParameterizedTest(name = "server {0} {1}")
    @MethodSource("servers")
    void theRealClientSpeaksTheProbeThroughEveryClientTransportToARealServer(String impl, List<String> runtime,
                                                                             @TempDir Path dir) throws Exception {
        List<String> args = new ArrayList<>(List.of("--protocol", "probe", "--impl", impl, "--port", "0"));
        args.addAll(runtime);
        String accounts;
        try (ServerProcess server = ServerProcess.start(List.of(registryLine()), Map.of(),
                args.toArray(new String[0]))) {
            // 3 iterations (1 warmup) x 50 messages x 2 threads per client transport, checked byte for byte.
            NbenchProcess.Result r = run(dir, "client", "--protocol", "probe", "--port", Integer.toString(server.port),
                    "--impl", String.join(",", CLIENT_IMPLS), "--threads", "2", "--connections", "2", "--window", "4",
                    "--msgs", Integer.toString(MSGS), "--warmup", "1", "--iterations", "2", "--size", "100",
                    "--response-size", "40", "--verify", "full");
            assertEquals(0, r.exit(), r.all());
            assertEquals("", r.err());
            assertTrue(r.out().contains("protocol probe"), r.out());
            assertEquals(0, server.terminate(), server.stderr()); // then it prints its report
            accounts = server.awaitLine(l -> l.startsWith("  requests received "));
            assertEquals("", server.stderr());
        }
        long messages = (long) CLIENT_IMPLS.size() * 3 * MSGS * 2;
        assertEquals(String.format(Locale.ROOT, "  requests received %,d: answered %,d, rejected 0, dropped at shutdown "
                + "0, dropped on close 0, in progress 0", messages, messages), accounts);
    }

    @Test
    void theRegistryLineAloneMakesItANameOfTheOptionItsHelpAndCompletion(@TempDir Path dir) throws Exception {
        NbenchProcess.Result help = run(dir, "client", "--help");
        assertEquals(0, help.exit(), help.all());
        assertTrue(help.out().contains("--protocol=framed|echo|http|probe"), help.out());
        assertTrue(help.out().replaceAll("\\s+", " ").contains("Wire protocol: framed (length, response length, id), "
                + "echo (RFC 862), http (HTTP/1.1, RFC 9112) or probe (a test's own). Default: framed."), help.out());
        NbenchProcess.Result completion = run(dir, "completion", "bash");
        assertEquals(0, completion.exit(), completion.all());
        Path script = Files.writeString(dir.resolve("nbench.bash"), completion.out());
        assertEquals("echo framed http probe", CompletionTest.complete(script, "nbench", "client", "--protocol", ""));
        NbenchProcess.Result unknown = run(dir, "client", "--protocol", "nosuch", "--msgs", "1");
        assertEquals(ExitCode.USAGE, unknown.exit(), unknown.all());
        assertEquals(1, unknown.err().strip().lines().count(), unknown.err());
        assertTrue(unknown.err().contains("unknown protocol 'nosuch': use framed, echo, http or probe"), unknown.err());
    }
}
