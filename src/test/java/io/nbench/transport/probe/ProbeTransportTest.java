package io.nbench.transport.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nbench.cli.Main;
import io.nbench.client.ExitCode;
import io.nbench.testkit.ResultDocs;
import io.nbench.testkit.ServerProcess;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URL;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The "add a server transport" recipe holds: {@link ProbeTransport}, one class, and one registry line make a
 * server transport that a real {@code nbench server --impl probe} (a child JVM with the line on its class
 * path, found by the same ServiceLoader lookup as the built-in transports) runs, answering the real client,
 * with every part of the server runtime (work on the I/O thread or on nbench's pool, processing time, queue
 * wait, the request accounts) coming from the request pipeline, not from the probe.
 */
class ProbeTransportTest {

    private static final int MSGS = 400;

    static Stream<List<String>> runtimes() {
        return Stream.of(List.of(), List.of("--work", "100us"), List.of("--executor-threads", "2:2"),
                List.of("--executor-threads", "2:2", "--work", "100us"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runtimes")
    void theRealClientIsAnsweredByAServerTransportAddedWithOneClassAndOneRegistryLine(List<String> runtime)
            throws Exception {
        List<String> args = new ArrayList<>(List.of("--impl", "probe", "--port", "0"));
        args.addAll(runtime);
        boolean pooled = runtime.contains("--executor-threads");
        String processing;
        String queueWait;
        String accounts;
        long answered;
        try (ServerProcess server = ServerProcess.start(List.of(registryLine()), Map.of(), args.toArray(new String[0]))) {
            assertTrue(server.firstLine.startsWith("nbench server: probe listening on "), server.firstLine);
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int code = Main.run(new String[] {"client", "--impl", "nio", "--port", Integer.toString(server.port),
                    "--connections", "2", "--window", "4", "--msgs", Integer.toString(MSGS), "--size", "64",
                    "--warmup", "0", "--iterations", "1", "--format", "json"}, new PrintWriter(out, true),
                    new PrintWriter(err, true));
            assertEquals(ExitCode.OK, code, err.toString());
            JsonNode summary = ResultDocs.read(out.toString()).get("summary");
            answered = summary.get("messages").asLong();
            assertTrue(answered >= MSGS && summary.get("errors").get("total").asLong() == 0, summary.toString());

            Process kill = new ProcessBuilder("kill", "-TERM", Long.toString(server.pid())).inheritIO().start();
            assertEquals(0, kill.waitFor());
            assertEquals(0, server.waitFor(), "exit code after SIGTERM; stderr: " + server.stderr()); // its report follows
            accounts = server.awaitLine(l -> l.startsWith("  requests received "));
            processing = server.awaitLine(l -> l.startsWith("  processing, "));
            queueWait = server.awaitLine(l -> l.startsWith("  queue wait, "));
            assertEquals("", server.stderr());
        }
        // The client's count of answers, against the server's own accounts and histograms.
        assertEquals(String.format(Locale.ROOT, "  requests received %,d: answered %,d, rejected 0, dropped at shutdown "
                + "0, dropped on close 0, in progress 0", answered, answered), accounts);
        assertEquals(answered, count(processing), "a processing time per request answered: " + processing);
        assertEquals(pooled ? answered : 0, count(queueWait), "a queue wait per pooled request: " + queueWait);
    }

    /** The report's count column, after the row's name. */
    private static long count(String row) {
        Matcher m = Pattern.compile("\\)\\s+([\\d,]+)\\s").matcher(row);
        assertTrue(m.find(), row);
        return Long.parseLong(m.group(1).replace(",", ""));
    }

    /** The class path entry whose META-INF/services line registers the probe (in this test's resources). */
    private static Path registryLine() throws Exception {
        URL line = ProbeTransportTest.class.getResource("/probe-transport/META-INF/services/io.nbench.transport.Transport");
        return Path.of(line.toURI()).getParent().getParent().getParent();
    }
}
